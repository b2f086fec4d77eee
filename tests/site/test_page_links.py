"""The links that let a reader act on a page, as the browser sees them on every page in both languages:
"Edit this page" (its own source), "Report a problem" (a new issue naming the page), the licence in the
footer, and "Open in Colab" beside the .ipynb download on notebook pages and their chapters.

They are links only: test_pages.py::test_no_request_leaves_the_site checks that none of them loads anything.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urljoin, urlsplit

from tests.site.siteinfo import DOCS, ROOT

_MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
REPO = re.search(r"^repo_url:\s*(\S+)", _MKDOCS, re.M).group(1).rstrip("/")
EDIT_BASE = REPO + "/" + re.search(r"^edit_uri:\s*(\S+)", _MKDOCS, re.M).group(1).strip("/") + "/"
SITE_URL = "https://custom-gradients-faq.github.io/custom-gradients-faq/"  # mkdocs.yml default (SITE_URL unset)
COLAB = "https://colab.research.google.com/github/" + urlsplit(REPO).path.strip("/") + "/blob/gh-pages/"
NOTEBOOKS = sorted({p.name.split(".")[0] for p in (DOCS / "notebooks").glob("*.py")})
LICENCES = {"https://www.apache.org/licenses/LICENSE-2.0", "https://creativecommons.org/licenses/by/4.0/"}


def _report(failures: list[str], what: str) -> str:
    return f"{len(failures)} page(s) {what}:\n  " + "\n  ".join(failures)


def _notebook_of(path: str) -> str | None:
    """'ru/notebooks/nth-order/' -> 'nth-order' (a notebook page); None for any other page."""
    match = re.fullmatch(r"(?:ru/)?notebooks/([^/]+)/", path)
    return match.group(1) if match else None


def expected_source(page) -> str | None:
    """The file under docs/ that a reader edits to change this page."""
    name = _notebook_of(page.path)
    if name is not None:
        ru = DOCS / "notebooks" / f"{name}.ru.py"
        return f"notebooks/{name}.ru.py" if page.lang == "ru" and ru.exists() else f"notebooks/{name}.py"
    source = page.source()
    return source.relative_to(DOCS).as_posix() if source else None


def _links(visit, kind: str) -> list[dict]:
    return [link for link in visit.facts["pageLinks"] if link["kind"] == f"page-links__{kind}"]


def test_edit_link_opens_the_page_own_source_in_its_language(visits):
    bad = []
    for v in visits.values():
        source = expected_source(v.page)
        if source is None:
            bad.append(f"{v.page.name}: no source file found for the page (test or page discovery is wrong)")
            continue
        links = _links(v, "edit")
        want = EDIT_BASE + source
        if [link["href"] for link in links] != [want]:
            bad.append(f"{v.page.name}: edit link(s) {[link['href'] for link in links]}, expected [{want}]")
        elif not (DOCS / source).is_file():
            bad.append(f"{v.page.name}: edit link to docs/{source}, which does not exist")
        elif links[0]["text"] != {"en": "Edit this page", "ru": "Редактировать страницу"}[v.page.lang]:
            bad.append(f"{v.page.name}: edit link reads {links[0]['text']!r}, not in the page's language")
    assert not bad, _report(bad, "have no right 'Edit this page' link (hooks/page_links.py)")


def test_report_link_opens_a_new_issue_naming_the_page(visits):
    bad = []
    for v in visits.values():
        links = _links(v, "report")
        if len(links) != 1:
            bad.append(f"{v.page.name}: {len(links)} report links")
            continue
        url = urlsplit(links[0]["href"])
        query = parse_qs(url.query)
        page_url = urljoin(SITE_URL, v.page.path)
        if f"{url.scheme}://{url.netloc}{url.path}" != f"{REPO}/issues/new":
            bad.append(f"{v.page.name}: report link goes to {links[0]['href']}, not {REPO}/issues/new")
        elif page_url not in query.get("body", [""])[0] or not query.get("title", [""])[0].strip():
            bad.append(f"{v.page.name}: the new issue's title/body do not name the page {page_url}: {query}")
        elif links[0]["text"] != {"en": "Report a problem", "ru": "Сообщить о проблеме"}[v.page.lang]:
            bad.append(f"{v.page.name}: report link reads {links[0]['text']!r}, not in the page's language")
    assert not bad, _report(bad, "have no right 'Report a problem' link")


def test_footer_states_both_licences_in_the_page_language(visits):
    bad = []
    for v in visits.values():
        hrefs = {link["href"].replace("deed.ru", "") for link in v.facts["footerLinks"]}
        if not LICENCES <= hrefs or f"{REPO}/blob/main/LICENSE" not in hrefs:
            bad.append(f"{v.page.name}: footer links {sorted(hrefs)} lack a licence or the LICENSE file")
        words = {"en": ("Code", "text and diagrams"), "ru": ("Код", "текст и схемы")}[v.page.lang]
        if not all(word in v.facts["footerText"] for word in words):
            bad.append(
                f"{v.page.name}: footer {v.facts['footerText']!r} does not say, in its language, what each licence covers"
            )
    assert not bad, _report(bad, "do not state the licences in the footer (mkdocs.yml copyright)")
    assert (
        (ROOT / "LICENSE").is_file()
        and (ROOT / "LICENSES" / "Apache-2.0.txt").is_file()
        and (ROOT / "LICENSES" / "CC-BY-4.0.txt").is_file()
    )


def test_open_in_colab_beside_the_download_on_notebooks_and_their_chapters(visits, site):
    bad = []
    pages_with_notebook = 0
    for v in visits.values():
        prefix = "ru/" if v.page.lang == "ru" else ""
        name = _notebook_of(v.page.path)
        bare = v.page.path[len(prefix) :].rstrip("/")
        if name is None and bare in NOTEBOOKS:
            name = bare  # a chapter that has a notebook
        buttons = v.facts["notebookButtons"]
        colab = [b["href"] for b in buttons if b["href"].startswith("https://colab.research.google.com/")]
        if name is None:
            if colab:
                bad.append(f"{v.page.name}: a Colab link on a page without a notebook: {colab}")
            continue
        pages_with_notebook += 1
        download = f"{prefix}notebooks/{name}/{name}{'.ru' if prefix else ''}.ipynb"
        downloads = [b["href"] for b in buttons if b["download"]]
        label = {"en": "Open in Colab", "ru": "Открыть в Colab"}[v.page.lang]
        if colab != [COLAB + download]:
            bad.append(f"{v.page.name}: Colab link(s) {colab}, expected [{COLAB + download}]")
        elif [urlsplit(d).path.lstrip("/") for d in downloads] != [download]:
            bad.append(f"{v.page.name}: the .ipynb download beside it is {downloads}, expected .../{download}")
        elif not (site / download).is_file():
            bad.append(f"{v.page.name}: {download} (what Colab opens, once published) is not in the build")
        elif not any(b["text"] == label for b in buttons):
            bad.append(f"{v.page.name}: no button reads {label!r}")
    assert pages_with_notebook == 4 * len(NOTEBOOKS), (
        f"found {pages_with_notebook} notebook pages and chapters, expected {4 * len(NOTEBOOKS)}"
    )
    assert not bad, _report(bad, "do not offer the notebook in Colab beside its download (hooks/notebooks.py)")


def test_notebook_says_which_tensorflow_made_its_outputs(site):
    """Readers on Colab get another TensorFlow: the executed notebook says which one made its outputs."""
    import json

    from tests.harness import VERSION_FILE

    tf = re.search(r"TensorFlow (\S+?),", VERSION_FILE.read_text()).group(1)
    bad = []
    for name in NOTEBOOKS:
        for download in (f"notebooks/{name}/{name}.ipynb", f"ru/notebooks/{name}/{name}.ru.ipynb"):
            cells = json.loads((site / download).read_text(encoding="utf-8"))["cells"]
            note = "".join(cells[1]["source"]) if len(cells) > 1 else ""
            if f"TensorFlow {tf}" not in note or f"tensorflow=={tf}" not in note:
                bad.append(
                    f"{download}: second cell {note[:120]!r} does not name TensorFlow {tf} and how to install it"
                )
    assert not bad, "notebooks without their TensorFlow note:\n  " + "\n  ".join(bad)
