"""The Russian pages use the glossary's terms (docs/glossary.ru.md), not stray variants.

A small, explicit list of variants that are NOT our terms (anglicisms, calques, other translations),
each with the term the glossary prefers. A match fails naming the page, the line and the preferred term.
Pages are the Russian Markdown pages and notebook sources (tests/prose.py); code, math and URLs are not
checked, and neither are quotations (lines starting with ">"), which keep a reader's own words. "Обратное распространение" (backpropagation) is a fine Russian term
and is not on the list.
"""

import re
from pathlib import Path

import pytest

from tests.harness import ROOT, relative
from tests.prose import diagram_labels, diagrams, is_russian, markdown_of, pages, prose_lines

DOCS = ROOT / "docs"
GLOSSARY_RU = DOCS / "glossary.ru.md"

# (regular expression for a wrong variant, matched case-insensitively; preferred term; glossary anchor)
WRONG_VARIANTS = [
    (r"восходящ\w*\s+градиент\w*", "градиент по выходу `dy` (входящий градиент)", "upstream-gradient"),
    (r"апстрим\w*", "градиент по выходу `dy` (входящий градиент)", "upstream-gradient"),
    (r"прям\w*\s+пасс\w*", "прямой проход", "forward-pass"),
    (r"обратн\w*\s+пасс\w*", "обратный проход", "backward-pass"),
    (r"кастомн\w*", "пользовательский градиент", "custom-gradient"),
    (r"настраиваем\w*\s+градиент\w*", "пользовательский градиент", "custom-gradient"),
    (r"т[еэ]йп\w*", "лента (`tf.GradientTape`)", "gradienttape"),
    (r"хессиан\w*", "гессиан", "hessian"),
    (r"(?:жадн|энергичн)\w*\s+(?:режим|исполнени|выполнени)\w*", "eager-режим", "eager-execution"),
    (r"трейсинг\w*", "трассировка", "tracing"),
    (r"правил\w*\s+цепоч\w*", "цепное правило", "chain-rule"),
    (r"режим\w*\s+граф\w*", "графовый режим", "graph-mode"),
    (r"сн[иеэ]пп?ет\w*", "пример кода", "snippet"),
    (r"аутпут\w*", "вывод", "output"),
    (r"докстринг\w*", "docstring", "docstring"),
]


def russian_pages():
    """Russian Markdown pages and notebook sources, and the Russian diagrams (name ending .ru.svg or -ru.svg)."""
    russian_diagrams = [svg for svg in diagrams() if svg.name.endswith((".ru.svg", "-ru.svg"))]
    return [p for p in pages() if is_russian(p)] + russian_diagrams


def prose_lines_to_check(page: Path):
    """(line number, text) for each line of prose, quotations left out."""
    text = diagram_labels(page) if page.suffix == ".svg" else markdown_of(page)
    for number, line in enumerate(prose_lines(text), start=1):
        if not line.lstrip().startswith(">"):
            yield number, line


def test_glossary_lists_every_preferred_term():
    """The list above and the glossary must not drift: each preferred term and anchor is in glossary.ru.md."""
    glossary = GLOSSARY_RU.read_text(encoding="utf-8")
    lowered = glossary.lower()
    problems = []
    for _, preferred, anchor in WRONG_VARIANTS:
        if f"{{ #{anchor} }}" not in glossary:
            problems.append(f"no heading with {{ #{anchor} }} (for '{preferred}')")
        main = preferred.split(" (")[0].split(" `")[0].lower()
        if main not in lowered:
            problems.append(f"the preferred term '{main}' does not appear")
    assert not problems, f"{relative(GLOSSARY_RU)} and tests/test_glossary.py disagree:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", russian_pages(), ids=[relative(p) for p in russian_pages()])
def test_russian_page_uses_glossary_terms(page):
    found = []
    for number, text in prose_lines_to_check(page):
        for pattern, preferred, anchor in WRONG_VARIANTS:
            for match in re.finditer(pattern, text, flags=re.IGNORECASE):
                found.append(
                    f"{relative(page)}:{number}: '{match.group(0)}' is not our term; "
                    f"write '{preferred}' (see docs/glossary.ru.md#{anchor})"
                )
    assert not found, "Russian pages must use the glossary's terms:\n" + "\n".join(found)


def glossary_entries(path: Path) -> dict[str, tuple[str, str]]:
    """anchor -> (term in the heading, the line naming it in the other language) for each `###` entry."""
    entries = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        match = re.match(r"^###\s+(.*?)\s*\{\s*#([\w-]+)\s*\}\s*$", line)
        if match:
            other = lines[number + 1] if number + 1 < len(lines) else ""
            entries[match.group(2)] = (match.group(1), other)
    return entries


def _plain(term: str) -> str:
    """A term without code font, a parenthetical and trailing punctuation, lowercased."""
    return re.sub(r"\s*\(.*?\)", "", term).replace("`", "").strip(" .").casefold()


def test_glossary_pages_name_each_other():
    """Each English entry names the Russian heading's term, and each Russian entry names the English one."""
    english = glossary_entries(DOCS / "glossary.md")
    russian = glossary_entries(GLOSSARY_RU)
    problems = []
    for anchor in sorted(set(english) | set(russian)):
        if anchor not in english or anchor not in russian:
            problems.append(f"#{anchor}: an entry in only one of docs/glossary.md and docs/glossary.ru.md")
            continue
        (en_term, en_other), (ru_term, ru_other) = english[anchor], russian[anchor]
        if not en_other.startswith("**Russian:**") or _plain(ru_term) not in en_other.casefold():
            problems.append(f"#{anchor}: docs/glossary.md should start with '**Russian:** {_plain(ru_term)}'")
        if not ru_other.startswith("**По-английски:**") or _plain(en_term) not in ru_other.casefold():
            problems.append(f"#{anchor}: docs/glossary.ru.md should start with '**По-английски:** {_plain(en_term)}'")
    assert not problems, "the two glossary pages disagree:\n" + "\n".join(problems)
