"""The search box's own ranking (overrides/assets/javascripts/pagefind-search.js, `window.cgSearchRank`) on made-up
Pagefind results: what tests/site/test_search_first.py relies on, one rule at a time.

If one fails, the rule named in the test's name changed in pagefind-search.js: fix the script, or the comment there
and this test together.
"""

from __future__ import annotations

import pytest

from tests.harness import ROOT

SCRIPT = ROOT / "overrides" / "assets" / "javascripts" / "pagefind-search.js"


@pytest.fixture(scope="module")
def rank(browser):
    tab = browser.new_page()
    tab.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
    yield tab
    tab.close()


def page(url: str, content: str, sections: list[tuple], headings: dict[str, int] | None = None) -> dict:
    """A page as Pagefind's `data()` gives it: content words, and per section (anchor, title, [(location, weight)]);
    `headings` gives the content position where a section's heading starts (Pagefind's `anchor.location`)."""
    headings = headings or {}
    return {
        "url": url,
        "meta": {"title": url},
        "content": content,
        "excerpt": "",
        "sub_results": [
            {
                "url": f"{url}#{anchor}" if anchor else url,
                "title": title,
                "excerpt": "",
                "weighted_locations": [{"location": n, "weight": w} for n, w in locs],
                "locations": [n for n, _ in locs],
                **(
                    {"anchor": {"element": "h2", "id": anchor, "location": headings[anchor]}}
                    if anchor in headings
                    else {}
                ),
            }
            for anchor, title, locs in sections
        ],
    }


def ranked(rank, pages: list[dict], query: str) -> list[tuple[str, list[str]]]:
    return rank.evaluate(
        """([pages, query]) => window.cgSearchRank.scoreSections(pages, query)
            .map((r) => [r.page.url, r.shown.map((s) => s.url.split("#")[1])])""",
        [pages, query],
    )


def test_a_page_found_by_one_word_only_is_kept_and_sections_are_merged(rank):
    whole = [page("/a/", "alpha beta", [("one", "One", [(0, 1)])])]
    alpha = [page("/a/", "alpha beta", [("one", "One", [(0, 1)])])]
    beta = [page("/a/", "alpha beta", [("one", "One", [(1, 1)])]), page("/b/", "beta", [("two", "Two", [(0, 1)])])]
    merged = rank.evaluate("(runs) => window.cgSearchRank.mergeResults(runs)", [whole, alpha, beta])
    assert [p["url"] for p in merged] == ["/a/", "/b/"]
    assert sorted(merged[0]["sub_results"][0]["locations"]) == [0, 1]


def test_a_rare_word_in_a_heading_beats_common_words_in_prose(rank):
    prose = page("/chapter/", "the gradient is here the gradient", [("text", "Text", [(0, 1), (1, 1), (2, 1)])])
    entry = page("/errors/", "rare words", [("entry", "Entry", [(0, 6)])])
    others = [page(f"/p{i}/", "the gradient is", [("s", "S", [(0, 1), (1, 1), (2, 1)])]) for i in range(20)]
    assert ranked(rank, [prose, *others, entry], "the gradient is rare")[0][0] == "/errors/"


def test_the_opening_of_a_page_counts_less_than_a_section(rank):
    # Page /a/ names both words only in its opening (title and introduction); /b/ has both in one section.
    a = page("/a/", "alpha beta x", [("", "/a/", [(0, 1), (1, 1)]), ("sec", "Sec", [(2, 1)])])
    b = page("/b/", "alpha beta", [("sec", "Sec", [(0, 1), (1, 1)])])
    assert ranked(rank, [a, b], "alpha beta")[0][0] == "/b/"


def test_the_section_with_the_pasted_message_comes_first_under_its_page(rank):
    message = "w1 w2 w3 w4 w5 w6"
    entry = page(
        "/errors/",
        message + " w1 w2 w3",
        [("heading-words", "Other", [(6, 6), (7, 6), (8, 6)]), ("entry", "Entry", [(n, 1) for n in range(6)])],
    )
    assert ranked(rank, [entry], message)[0] == ["/errors/", ["entry", "heading-words"]]


def test_a_repeated_word_makes_no_phrase(rank):
    # /a/ prints "nan nan inf gradient" (one run of four positions, three query words); /b/ has the rare word and the
    # three others apart. Counted by positions, /a/'s run would hold the whole query and double its score.
    a = page("/a/", "nan nan inf gradient", [("out", "Out", [(0, 1), (1, 1), (2, 1), (3, 1)])])
    b = page("/b/", "logsumexp x nan y inf z gradient", [("entry", "Entry", [(0, 1), (2, 1), (4, 1), (6, 1)])])
    others = [page(f"/p{i}/", "nan gradient", [("s", "S", [(0, 1), (1, 1)])]) for i in range(5)]
    assert ranked(rank, [a, *others, b], "logsumexp inf gradient nan")[0][0] == "/b/"


def test_a_name_in_a_heading_counts_as_a_heading_word(rank):
    # Pagefind weighs the part recompute_grad of the heading's `tf.recompute_grad` a third of the heading (2 of 6):
    # the heading still counts 6 for it, as for the heading's other words.
    entry = page(
        "/errors/",
        "tf.recompute_grad with one tensor passed twice",
        [("entry", "tf.recompute_grad with one tensor passed twice", [(0, 2), (3, 6)])],
        headings={"entry": 0},
    )
    prose = page("/chapter/", "recompute_grad and a tensor", [("text", "Text", [(0, 3), (3, 6)])])
    assert ranked(rank, [prose, entry], "recompute_grad tensor")[0][0] == "/errors/"


def test_yo_in_a_page_counts_for_the_stem_of_the_query_written_with_e(rank):
    # The query's Russian words arrive as Snowball stems, with "е" for "ё" (берётся -> берет); Pagefind finds the
    # page's "берётся" for it, and the ranking must count it too.
    yo = page("/yo/", "откуда берётся dy", [("q", "Q", [(0, 1), (1, 1), (2, 1)])])
    other = page("/other/", "откуда dy", [("q", "Q", [(0, 1), (1, 1)])])
    assert ranked(rank, [other, yo], "откуд берет dy")[0][0] == "/yo/"
