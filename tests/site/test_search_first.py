"""Search ranks the answer first: for every query of the frozen set (tests/site/search_queries.yml), typed into the
site's own search box in the page's language, the first page shown is the page that holds the expected section,
and that section is the first one shown under it (issue 22).

The expected page is not written in the data: the section's id is looked up among the headings of the built site
in that language, so an entry that moves to another page (the split of the symptom index) is followed there. A
redirect stub that keeps an old id at the old place is not a heading, so it is not taken for the entry. A companion
notebook (`/notebooks/<chapter>/`) repeats its chapter's headings: where both have the id, the chapter is the answer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.harness import ROOT
from tests.site.conftest import new_context
from tests.site.search_box import search

QUERIES_FILE = ROOT / "tests" / "site" / "search_queries.yml"
QUERIES = yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))

_HEADING_ID = re.compile(r"<h[1-6][^>]*\bid=\"([^\"]+)\"")
_TITLE_ID = re.compile(r"<h1[^>]*\bid=\"([^\"]+)\"")

FIX = (
    "the query set is frozen: change the ranking, not the query (hooks/pagefind_index.py: weights and "
    "data-pagefind-ignore; overrides/assets/javascripts/pagefind-search.js: ranking options and the section order)"
)


# Queries that still rank another page or section first (measured 2026-12-02 on branch q1-search: the merged per-word
# search and section order of pagefind-search.js; remeasured on b2-search after cookbook batch 2, with the phrase counted
# in distinct words, heading words read whole and parenthesised pointers out of the index; issue 22 stays open for
# them): expected failures, never edits of the query. strict: a listed query that starts passing fails the run, so
# this list is always exactly today's failures (remove it from the list then).
STILL_FAILING = {
    "en-01-gradient-is-none",
    "en-14-symbolictensor-numpy",
    "en-27-k-gradients-by-module",
    "en-29-source-not-watched",
    "en-30-source-not-watched",
    "en-35-several-outputs-grad-arguments",
    "en-36-hyperparameter-argument",
    "en-37-second-derivative-none-nested-tapes",
    "en-38-variable-created-inside",
    "en-43-tape-outside-tf-function-intermediate",
    "en-44-hessian-zeros-same-tape",
    "en-48-decorating-grad",
    "en-56-output-gradients",
    "en-61-straight-through",
    "en-67-cheaper",
    # 2026-12-02, after cookbook batch 4: the new #safe-norm-alternatives prints rows of nan and 0, which the
    # verbatim rule of pagefind-search.js reads as a pasted message (it counts positions, not distinct words)
    "ru-02-gradient-is-none",
    "ru-10-symbolictensor-numpy",
    "ru-21-source-not-watched",
    "ru-22-source-not-watched",
    "ru-55-non-persistent-tape",
    "ru-57-short-answer",
    "ru-61-what-compute-gradient-does",
    "ru-65-sigmoid-every-order",
}


def _cases():
    for lang in ("en", "ru"):
        for n, item in enumerate(QUERIES[lang], 1):
            case = f"{lang}-{n:02d}-{item['id']}"
            marks = (
                [pytest.mark.xfail(reason="ranks below another section (STILL_FAILING)", strict=True)]
                if case in STILL_FAILING
                else []
            )
            yield pytest.param(lang, item, id=case, marks=marks)


@pytest.fixture(scope="module")
def headings(site) -> dict[str, dict[str, list[str]]]:
    return site_headings(site)


def site_headings(site) -> dict[str, dict[str, list[str]]]:
    """{lang: {id: [page paths that have a heading with that id]}} of the built site."""
    found: dict[str, dict[str, list[str]]] = {"en": {}, "ru": {}}
    for html in sorted(Path(site).rglob("index.html")):
        rel = html.parent.relative_to(site).as_posix()
        path = "/" if rel == "." else f"/{rel}/"
        if path.split("/")[1] in ("assets", "pagefind", "search"):
            continue
        lang = "ru" if path.startswith("/ru/") else "en"
        for anchor in set(_HEADING_ID.findall(html.read_text(encoding="utf-8"))):
            found[lang].setdefault(anchor, []).append(path)
    return found


@pytest.fixture(scope="module")
def titles(site) -> dict[str, str]:
    return page_title_ids(site)


def page_title_ids(site) -> dict[str, str]:
    """{page path: the id of its title (h1)} of the built site. The search box shows the title as the page's own link,
    not as a section under it: where the answer is a whole page, that link is the answer."""
    found = {}
    for html in sorted(Path(site).rglob("index.html")):
        rel = html.parent.relative_to(site).as_posix()
        title = _TITLE_ID.search(html.read_text(encoding="utf-8"))
        if title:
            found["/" if rel == "." else f"/{rel}/"] = title[1]
    return found


def expected_page(headings, lang: str, item: dict) -> str:
    pages = headings[lang].get(item["id"], [])
    if item.get("page"):
        want = ("/ru/" if lang == "ru" else "/") + item["page"].strip("/") + "/"
        pages = [p for p in pages if p == want]
    chapters = [p for p in pages if "/notebooks/" not in p]
    pages = chapters or pages
    assert len(pages) == 1, (
        f"{QUERIES_FILE.relative_to(ROOT)}: the {lang} site has {len(pages)} pages with a heading "
        f"#{item['id']} ({pages}); the query {item['q']!r} needs exactly one (give `page:` where an id is on several)"
    )
    return pages[0]


@pytest.fixture(scope="module")
def tabs(browser, server):
    context = new_context(browser, server)
    yield {lang: context.new_page() for lang in ("en", "ru")}
    context.close()


def describe(shown, limit: int = 3) -> str:
    return "; ".join(f"{path} [{', '.join('#' + s for s in sections)}]" for path, sections in shown[:limit]) or "none"


@pytest.mark.parametrize(("lang", "item"), list(_cases()))
def test_answer_comes_first(tabs, server, headings, titles, lang, item):
    page = expected_page(headings, lang, item)
    shown = search(tabs[lang], server, "ru/" if lang == "ru" else "", item["q"])
    first_page, first_sections = shown[0] if shown else (None, [])
    where = f"searching the {lang} site for {item['q']!r} (source: {item['source']})"
    assert first_page == page, (
        f"{where}: the first page shown is {first_page}, not {page} (#{item['id']}); shown first: {describe(shown)}; "
        f"{FIX}"
    )
    if titles.get(page) == item["id"]:
        return  # the answer is the page itself: its own link, shown first, opens it at its title
    assert first_sections[:1] == [item["id"]], (
        f"{where}: {page} comes first, but its first section is "
        f"{('#' + first_sections[0]) if first_sections else 'none'}, not #{item['id']} "
        f"(sections shown: {first_sections}); {FIX}"
    )
