"""The release matrix on the built site (hooks/release_notes.py, hooks/versions_table.py), from the real data of
`make versions` (versions/): every difference explained in both languages, every page with snippets naming the
releases of versions/releases.yml, every differing snippet's note on every page that shows it with that release's
exact output, and the table page covering every snippet and release, in both languages."""

import html
import re

import pytest

from release_matrix import DIFFERENCES, load
from release_notes import releases_span
from tests.harness import ROOT
from tests.prose import prose_lines
from tests.test_glossary import WRONG_VARIANTS, definition
from versions_table import pages_with_snippets

DOCS = ROOT / "docs"
MATRIX = load(ROOT)
RELEASES = [r.tensorflow for r in MATRIX.releases]
LANGUAGES = ("en", "ru")


def shown_whole(source) -> list[str]:
    """The snippets a Markdown page shows with their output, in order."""
    from snippet_includes import INCLUDE, shows_output

    text = source.read_text(encoding="utf-8")
    return list(dict.fromkeys(m["path"] for m in INCLUDE.finditer(text) if shows_output(m)))


PAGES = [
    p.relative_to(DOCS).as_posix()
    for p in sorted(DOCS.rglob("*.md"))
    if "assets" not in p.parts and not p.name.endswith(".ru.md") and shown_whole(p)
]


def source(page: str, lang: str):
    return DOCS / (page.removesuffix(".md") + ".ru.md") if lang == "ru" else DOCS / page


def built(site_dir, page: str, lang: str) -> str:
    folder = site_dir / "ru" if lang == "ru" else site_dir
    stem = page.removesuffix(".md").removesuffix("index").rstrip("/")  # cookbook/index.md -> cookbook/
    return (folder / stem / "index.html").read_text(encoding="utf-8")


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("\u00a0", " ")


def test_every_difference_is_explained_in_both_languages():
    problems = MATRIX.unexplained()
    assert not problems, f"{DIFFERENCES} and the results of `make versions` disagree:\n" + "\n".join(problems)


def test_the_russian_explanations_use_the_glossary_terms():
    """tests/test_glossary.py's list, applied to the Russian sentences of versions/differences.yml (its spelling is
    checked with the pages, tests/prose.py)."""
    found = []
    for snippet, by_key in MATRIX.explanations.items():
        for key, text in by_key.items():
            for line in prose_lines(text.get("ru", "")):
                for pattern, preferred, anchor in WRONG_VARIANTS:
                    for match in re.finditer(pattern, line, flags=re.IGNORECASE):
                        found.append(
                            f"{snippet} → '{key}': '{match.group(0)}': write '{preferred}' ({definition(anchor)})"
                        )
    assert not found, f"{DIFFERENCES}: Russian explanations must use the glossary's terms:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_with_snippets_names_the_releases_its_outputs_were_checked_on(built_site, page, lang):
    snippets = shown_whole(source(page, lang))
    missing = []
    for release in MATRIX.releases:
        stale = [s for s in snippets if release.result(s) == "unchecked"]
        if stale and not release.results:
            missing.append(
                f"  TensorFlow {release.tensorflow}: no results at all: make versions RELEASES={release.tensorflow}"
            )
        elif stale:
            missing.append(
                f'  TensorFlow {release.tensorflow}: make versions RELEASES={release.tensorflow} ONLY="{" ".join(stale)}"'
            )
    assert not missing, (
        f"docs/{source(page, lang).name} shows snippets with no current result on some release of "
        "versions/releases.yml (new or changed since `make versions` ran):\n" + "\n".join(missing)
    )
    line = re.search(r'<p class="releases-checked">(.*?)</p>', built(built_site.site_dir, page, lang), re.S)
    assert line, f"the built {lang} page of docs/{page} has no release line under its title (hooks/release_notes.py)"
    named = re.findall(r"\d+\.\d+\.\d+", text_of(line.group(1)))
    assert named == RELEASES, f"the {lang} page of docs/{page} names {named}, not the releases {RELEASES}"


def notes_on_pages():
    return [
        (page, lang, snippet)
        for page in PAGES
        for lang in LANGUAGES
        for snippet in shown_whole(source(page, lang))
        if MATRIX.notes(snippet)
    ]


@pytest.mark.parametrize("page, lang, snippet", notes_on_pages())
def test_a_differing_snippet_has_its_note_with_each_release_real_output(built_site, page, lang, snippet):
    notes = MATRIX.notes(snippet)
    page_html = built(built_site.site_dir, page, lang)
    note = re.search(
        r'<details class="note">\s*<summary>(?P<title>.*?)</summary>\s*<p id="'
        + notes[0].anchor
        + r'">(?P<why>.*?)</p>'
        r"(?P<body>.*?)</details>",
        page_html,
        re.S,
    )
    assert note, (
        f"the {lang} page of docs/{page} has no note #{notes[0].anchor} under {snippet} (hooks/release_notes.py)"
    )
    assert text_of(note["why"]).strip(), f"the note under {snippet} ({lang}) has no explanation; see {DIFFERENCES}"
    blocks = re.findall(r'<span class="filename">(.*?)</span>.*?<code>(.*?)</code>', note["body"], re.S)
    titles = [text_of(title) for title, _ in blocks]
    for n, title in zip(notes, titles):
        assert releases_span(n.releases, RELEASES, lang) in title, f"the note under {snippet} ({lang}): {title!r}"
    shown = [text_of(code).rstrip("\n") for _, code in blocks]
    assert shown == [n.output.rstrip("\n") for n in notes], (
        f"the note under {snippet} on the {lang} page of docs/{page} does not show the outputs of "
        f"versions/results/ for {[n.releases for n in notes]}"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_page_covers_every_snippet_and_release(built_site, lang):
    page_html = built(built_site.site_dir, "versions.md", lang)
    tables = re.findall(r"<table[^>]*>(.*?)</table>", page_html, re.S)
    releases_table, snippet_tables = tables[0], tables[1:]
    for release in RELEASES:
        assert f"<td>{release}" in releases_table, f"the {lang} table page has no row for TensorFlow {release}"
    rows = {}
    for table in snippet_tables:
        head = [text_of(h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
        assert head[1:] == RELEASES, f"a snippet table of the {lang} table page has the columns {head}"
        for cells in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
            first = text_of(re.search(r"<td[^>]*>(.*?)</td>", cells, re.S).group(1)).strip()
            rows[first] = cells
    pages = pages_with_snippets(DOCS, [])
    every = [s for snippets in pages.values() for s in snippets]
    missing = [s for s in every if s.removeprefix("snippets/") not in rows]
    assert not missing, f"the {lang} table page (docs/versions.md) has no row for: {' '.join(missing)}"
    for snippet in every:
        for note in MATRIX.notes(snippet):
            assert f"#{note.anchor}" in rows[snippet.removeprefix("snippets/")], (
                f"the {lang} table page does not link {snippet} to its note"
            )
