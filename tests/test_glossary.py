"""The Russian pages use the glossary's terms (docs/glossary.ru.md), not stray variants.

A small, explicit list of variants that are NOT our terms (anglicisms, calques, other translations),
each with the term the glossary prefers. A match fails naming the page, the line and the preferred term.
Pages are the Russian Markdown pages and notebook sources (tests/prose.py); code, math and URLs are not
checked, and neither are quotations (lines starting with ">"), which keep a reader's own words. "Обратное распространение" (backpropagation) is a fine Russian term
and is not on the list.

The list also holds one word per concept where two Russian words compete (градиент по выходу, not входящий
градиент; сквозной, not пропускающий; символьный, not символический; вариант 1/2 of a recipe, with «версия» kept
for versions of software), and the site's one decimal separator (a point, as in the printed outputs). Two more
rules: a page that uses «градиент по выходу» gives the English term once, in parentheses, at its first use; and a
chapter cited by name (в главе «…», в главе [Title](page.md)) is cited by its real title, the page's heading.
One exemption, narrow on purpose: the readers' own word «кастомный» may appear once, in one exact phrase
(SANCTIONED_PHRASE), on the landing page and in the glossary, so that the site's search finds it.
"""

import re
from pathlib import Path

import pytest

from tests.harness import ROOT, relative
from tests.prose import diagram_labels, diagrams, is_russian, markdown_of, pages, prose_lines

DOCS = ROOT / "docs"
GLOSSARY_RU = DOCS / "glossary.ru.md"

# (regular expression for a wrong variant, matched case-insensitively; preferred term; where the term is defined:
# an anchor of docs/glossary.ru.md, or a page and anchor such as "second-order.md#version-1")
WRONG_VARIANTS = [
    (r"восходящ\w*\s+градиент\w*", "градиент по выходу", "upstream-gradient"),
    (r"апстрим\w*", "градиент по выходу", "upstream-gradient"),
    (r"входящ\w*\s+градиент\w*", "градиент по выходу", "upstream-gradient"),
    (r"градиент\w*,?\s+пришедш\w*\s+сверху", "градиент по выходу", "upstream-gradient"),
    (r"пропускающ\w*", "сквозной градиент", "pass-through-gradient"),
    (r"символическ\w*", "символьный тензор", "symbolic-tensor"),
    (r"оттрассирован\w*", "трассированный граф", "tracing"),
    (
        r"верси\w*+(?!\s+(?:TensorFlow|TF|Python|Keras|NumPy|\d))",
        "вариант (вариант 1, вариант 2); «версия» только о версиях программ",
        "second-order.md#version-1",
    ),
    (r"\bне\s+то\s+число", "неверное число градиентов", "errors/error-message.md#expected-to-return-n-gradients"),
    (r"обратн\w*\s+функци\w*", "функция обратного прохода (обратная функция — это inverse)", "backward-pass"),
    (r"фрагмент\w*\s+кода", "блок кода (каждый — файл, пример кода)", "snippet"),
    (r"(?<![\d.,])\d+,\d+(?![\d,])", "десятичная точка, как в выводе (2.4, не 2,4)", "glossary.md#glossary"),
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
    (r"зерн\w*\s+(?:генератор|случайн|dropout)\w*|с\s+зерн\w*", "сид (seed)", "seed"),
    (r"релиз\w*", "выпуск", "release"),
    (r"постоянн\w*\s+лент\w*", "лента с `persistent=True`", "persistent-tape"),
    (r"персистентн\w*", "лента с `persistent=True`", "persistent-tape"),
    (r"persistent-лент\w*", "лента с `persistent=True`", "persistent-tape"),
]

# The one sanctioned mention of the readers' own word, so that the site's search finds «кастомный»: this exact
# phrase, once, on exactly these pages (the landing page and the term's glossary entry). Any other «кастомн…»,
# there or anywhere else, still fails as a wrong variant.
SANCTIONED_PHRASE = "пользовательский (в разговоре — «кастомный») градиент"
SANCTIONED_PAGES = (DOCS / "index.ru.md", GLOSSARY_RU)


def definition(anchor: str) -> str:
    """Where a preferred term is defined, as a path a reader can open."""
    if ".md" in anchor:
        page, _, section = anchor.partition("#")
        return f"docs/{page.replace('.md', '.ru.md')}#{section}"
    return f"docs/glossary.ru.md#{anchor}"


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
        if ".md" in anchor:  # defined on a page, not a glossary term
            continue
        if f"{{ #{anchor} }}" not in glossary:
            problems.append(f"no heading with {{ #{anchor} }} (for '{preferred}')")
        main = preferred.split(" (")[0].split(" `")[0].lower()
        if main not in lowered:
            problems.append(f"the preferred term '{main}' does not appear")
    assert not problems, f"{relative(GLOSSARY_RU)} and tests/test_glossary.py disagree:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", russian_pages(), ids=[relative(p) for p in russian_pages()])
def test_russian_page_uses_glossary_terms(page):
    found = []
    sanctioned_left = 1 if page in SANCTIONED_PAGES else 0
    for number, text in prose_lines_to_check(page):
        if sanctioned_left and SANCTIONED_PHRASE in text:  # the phrase once, as typed: no other form, no second use
            text = text.replace(SANCTIONED_PHRASE, " " * len(SANCTIONED_PHRASE), 1)
            sanctioned_left = 0
        for pattern, preferred, anchor in WRONG_VARIANTS:
            for match in re.finditer(pattern, text, flags=re.IGNORECASE):
                found.append(
                    f"{relative(page)}:{number}: '{match.group(0)}' is not our term; "
                    f"write '{preferred}' (see {definition(anchor)})"
                )
    assert not found, "Russian pages must use the glossary's terms:\n" + "\n".join(found)


@pytest.mark.parametrize("page", SANCTIONED_PAGES, ids=[relative(p) for p in SANCTIONED_PAGES])
def test_the_readers_word_is_mentioned_once(page):
    """The sanctioned phrase is on the page, on one line and exactly once, so the site's search finds «кастомный»."""
    count = sum(text.count(SANCTIONED_PHRASE) for _, text in prose_lines_to_check(page))
    assert count == 1, (
        f"{relative(page)}: «{SANCTIONED_PHRASE}» should appear exactly once, on one line (found {count}); "
        "it is the one place the readers' own word «кастомный» is allowed"
    )


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
        if not en_other.startswith("**Russian:**") or _plain(ru_term) not in en_other.replace("`", "").casefold():
            problems.append(f"#{anchor}: docs/glossary.md should start with '**Russian:** {_plain(ru_term)}'")
        if not ru_other.startswith("**По-английски:**") or _plain(en_term) not in ru_other.replace("`", "").casefold():
            problems.append(f"#{anchor}: docs/glossary.ru.md should start with '**По-английски:** {_plain(en_term)}'")
    assert not problems, "the two glossary pages disagree:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------------------------------------
# The English name of the upstream gradient, once per page


UPSTREAM = re.compile(r"градиент\w*\s+по\s+выход\w*", re.IGNORECASE)
UPSTREAM_ENGLISH = "(upstream gradient)"


def russian_text_pages():
    return [p for p in pages() if is_russian(p) and p != GLOSSARY_RU]  # the glossary names it in its own entry


@pytest.mark.parametrize("page", russian_text_pages(), ids=[relative(p) for p in russian_text_pages()])
def test_upstream_gradient_is_named_in_english_once(page):
    """«градиент по выходу» is followed by "(upstream gradient)" at its first use on the page, and only there."""
    lines = prose_lines(markdown_of(page))
    text = "\n".join(lines)
    first = UPSTREAM.search(text)
    if first is None:
        return
    line = text.count("\n", 0, first.start()) + 1
    english = [m.start() for m in re.finditer(re.escape(UPSTREAM_ENGLISH), text)]
    right_after = re.match(r"[\s\]*`]*" + re.escape(UPSTREAM_ENGLISH), text[first.end() :])
    assert right_after and len(english) == 1, (
        f"{relative(page)}:{line}: the first «{first.group(0)}» on the page should be followed by "
        f"'{UPSTREAM_ENGLISH}', and the English term should appear only there "
        f"(found it {len(english)} time(s)); see docs/glossary.ru.md#upstream-gradient"
    )


# ---------------------------------------------------------------------------------------------------------
# Chapters cited by their real titles


def chapter_titles() -> dict[str, str]:
    """Page name (e.g. "second-order", "errors/none") -> its Russian title, the first heading without its { #anchor }."""
    titles = {}
    for page in sorted(p for p in DOCS.rglob("*.ru.md") if "assets" not in p.parts):
        first = page.read_text(encoding="utf-8").splitlines()[0]
        name = page.relative_to(DOCS).as_posix().removesuffix(".ru.md")
        titles[name] = re.sub(r"\s*\{[^}]*\}\s*$", "", first.lstrip("# ")).strip()
    return titles


CITED_AS_LINK = re.compile(
    r"(?:глав[аеуы]|вопрос[аеуы]?(?:\s+\d(?:\s+и\s+\d)?)?:?)\s+\[(?P<text>[^\]]+)\]\((?:\.\./)?(?P<page>[\w/-]+)\.md[^)]*\)"
)
CITED_IN_QUOTES = re.compile(r"глав[аеуы]\s+«(?P<text>[^»]+)»")


@pytest.mark.parametrize(
    "page", russian_text_pages() + [GLOSSARY_RU], ids=[relative(p) for p in russian_text_pages() + [GLOSSARY_RU]]
)
def test_chapters_are_cited_by_their_titles(page):
    """«в главе [Проверка градиентов](checking-gradients.md)» names no chapter: the title is «Как проверить …»."""
    titles = chapter_titles()
    text = markdown_of(page)
    problems = []
    for match in CITED_AS_LINK.finditer(text):
        cited = " ".join(match["text"].split())
        real = titles.get(match["page"])
        if real is not None and (cited[:1].isupper() or cited[:1] in "`@«") and cited != real:  # not «главе о …»
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{relative(page)}:{line}: [{cited}]({match['page']}.md) — the chapter's title is «{real}»")
    for match in CITED_IN_QUOTES.finditer(text):
        cited = " ".join(match["text"].split())
        if cited not in titles.values():
            line = text.count("\n", 0, match.start()) + 1
            problems.append(
                f"{relative(page)}:{line}: «{cited}» is no chapter's title; titles: "
                + "; ".join(f"«{t}»" for t in titles.values())
            )
    assert not problems, "cite a chapter by its real title (its first heading):\n" + "\n".join(problems)
