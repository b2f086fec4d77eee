"""Search, through the real search box, finds a word in any of its forms, in the reader's language.

For each query the expected pages are computed from the built site itself: every page of that language
whose text has any listed form of the word. So the tests keep working as chapters land, and prove
stemming whenever a page has the word only in other forms than the one typed.
"""

from __future__ import annotations

import re

import pytest

from tests.site.conftest import new_context
from tests.site.search_box import search

# (language, what the reader types, the forms of that word any of which makes a page relevant)
QUERIES = [
    (
        "ru",
        "производной",
        [
            "производная",
            "производной",
            "производную",
            "производные",
            "производных",
            "производными",
            "производным",
            "производнои",
        ],
    ),
    (
        "ru",
        "градиентами",
        [
            "градиент",
            "градиента",
            "градиенту",
            "градиентом",
            "градиенте",
            "градиенты",
            "градиентов",
            "градиентам",
            "градиентами",
            "градиентах",
        ],
    ),
    (
        "ru",
        "производная",
        ["производная", "производной", "производную", "производные", "производных", "производными", "производным"],
    ),
    (
        "ru",
        "градиенту",
        [
            "градиент",
            "градиента",
            "градиенту",
            "градиентом",
            "градиенте",
            "градиенты",
            "градиентов",
            "градиентам",
            "градиентами",
            "градиентах",
        ],
    ),
    ("ru", "ленты", ["лента", "ленты", "ленте", "ленту", "лентой", "лент", "лентам", "лентами", "лентах"]),
    ("en", "gradients", ["gradient", "gradients"]),
    ("en", "derivative", ["derivative", "derivatives"]),
]


def _has_any(text: str, forms: list[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text, re.IGNORECASE) for f in forms)


@pytest.fixture(scope="module")
def search_tab(browser, server):
    context = new_context(browser, server)
    tab = context.new_page()
    yield tab
    context.close()


def search_through_ui(tab, server, start_path: str, query: str) -> list[str]:
    """The result pages' URL paths for `query` typed in the header search box on `start_path`."""
    return [page for page, _sections in search(tab, server, start_path, query)]


@pytest.mark.parametrize(("lang", "query", "forms"), QUERIES, ids=[f"{q[0]}-{q[1]}" for q in QUERIES])
def test_query_finds_every_page_with_any_form(search_tab, server, visits, lang, query, forms):
    pages = {"/" + v.page.path: v.facts["text"] for v in visits.values() if v.page.lang == lang}
    expected = {path for path, text in pages.items() if _has_any(text, forms)}
    other_forms_only = {path for path in expected if not _has_any(pages[path], [query])}
    assert expected, f"no {lang} page uses any form of {query!r}: this query checks nothing; pick another word"

    start = "ru/" if lang == "ru" else ""
    shown = search_through_ui(search_tab, server, start, query)

    wrong_language = [p for p in shown if (p.startswith("/ru/")) != (lang == "ru")]
    assert not wrong_language, (
        f"searching {query!r} on the {lang} site showed pages in another language: {wrong_language}"
    )
    missing = sorted(expected - set(shown))
    assert not missing, (
        f"searching {query!r} on the {lang} site missed page(s) {missing} that use a form of it"
        + (f" (these use only other forms: {sorted(other_forms_only & set(missing))})" if other_forms_only else "")
        + f"; shown: {shown}"
    )


def test_some_query_needs_stemming(visits):
    """At least one Russian query finds a page that has the word only in other forms (stemming at work)."""
    found = []
    for lang, query, forms in QUERIES:
        if lang != "ru":
            continue
        texts = [v.facts["text"] for v in visits.values() if v.page.lang == lang]
        if any(_has_any(t, forms) and not _has_any(t, [query]) for t in texts):
            found.append(query)
    assert found, "no Russian page uses a listed word only in another form: add a query that needs stemming"


def test_enter_opens_the_first_result_in_the_readers_language(search_tab, server):
    shown = search_through_ui(search_tab, server, "ru/", "градиентами")
    assert shown, "no result for 'градиентами' on the Russian site"
    with search_tab.expect_navigation():
        search_tab.press("[data-cg-search-query]", "Enter")
    assert search_tab.url.startswith(server.base + "ru/"), f"Enter opened {search_tab.url}, not a Russian page"
    assert search_tab.evaluate("document.documentElement.lang") == "ru"


def test_words_after_a_non_breaking_space_are_found(search_tab, server, visits):
    """Russian pages join short words to the next one with U+00A0 (hooks/typography_ru.py): «в\u00a0графе».
    Search must still see «графе» as a word. Three words that, on some page, appear only right after a
    non-breaking space (in every form sharing their first six letters) must find that page."""
    candidates = []
    for visit in sorted(visits.values(), key=lambda v: v.page.path):
        if visit.page.lang != "ru":
            continue
        text = visit.facts["text"]
        for word in sorted(set(re.findall(r"\u00a0([а-яё]{7,})", text, re.IGNORECASE))):
            stem = re.escape(word[:6])
            before = [text[m.start() - 1] for m in re.finditer(rf"(?<![а-яё]){stem}", text, re.IGNORECASE)]
            if before and all(c == "\u00a0" for c in before):
                candidates.append((word.lower(), "/" + visit.page.path))
    assert len(candidates) >= 3, f"too few words only ever after a non-breaking space to test with: {candidates}"
    step = len(candidates) // 3
    for word, path in candidates[::step][:3]:
        shown = search_through_ui(search_tab, server, "ru/", word)
        assert path in shown, (
            f"searching {word!r} on the Russian site missed {path}, where the word only follows a non-breaking "
            f"space: the search index may not split words at U+00A0 (hooks/typography_ru.py); shown: {shown}"
        )
