"""overrides/assets/javascripts/russian-stem.js (the search box's Russian stemmer, a port of Snowball) gives
the same stem as the reference implementation (PyPI snowballstemmer) for every Russian word of the site.

Pagefind stems the index with Snowball; a query stem that differs would miss pages. If this fails, fix the
port in russian-stem.js (the word, the port's stem and the reference stem are listed).
"""

from __future__ import annotations

import re

import pytest
import snowballstemmer

from tests.harness import ROOT

SCRIPT = ROOT / "overrides" / "assets" / "javascripts" / "russian-stem.js"
WORD = re.compile(r"[а-яё]+")


def russian_words() -> list[str]:
    sources = [*ROOT.glob("docs/**/*.ru.md"), *ROOT.glob("docs/notebooks/*.ru.py"), *ROOT.glob("overrides/**/*.html")]
    return sorted({w for path in sources for w in WORD.findall(path.read_text(encoding="utf-8").lower())})


def test_the_port_stems_every_russian_word_of_the_site_as_snowball_does(browser):
    words = russian_words()
    assert len(words) > 1000, f"only {len(words)} Russian words found under docs/: is the word pattern right?"
    tab = browser.new_page()
    try:
        tab.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
        ported = tab.evaluate("words => words.map((w) => window.cgRussianStem(w))", words)
    finally:
        tab.close()
    reference = snowballstemmer.stemmer("russian").stemWords(words)
    wrong = [
        f"{w}: russian-stem.js gives {p!r}, Snowball gives {r!r}" for w, p, r in zip(words, ported, reference) if p != r
    ]
    if wrong:
        pytest.fail(f"{len(wrong)} of {len(words)} words stem differently:\n" + "\n".join(wrong[:40]), pytrace=False)
