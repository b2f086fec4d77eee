"""Russian typography (hooks/typography_ru.py): the built Russian pages have non-breaking spaces where Russian
typesetting wants them, and nowhere they would do harm (code, formulas, attributes, English pages).

The built pages are read with Python's own HTML parser, not with the hook's tokenizer, so a bug in the hook's
reading of HTML cannot hide itself. A finding names the page, quotes the text around it and says what to fix.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hooks.typography_ru import NBSP, typeset_html
from tests.harness import relative
from tests.prose import pages

SKIPPED = {"pre", "code", "kbd", "samp", "math", "svg", "script", "style", "textarea"}
# Where a run of text ends (a paragraph, a list item, a table cell): whitespace between two of them is no space
# between words, so the parser puts a separator there.
BLOCK = {
    "blockquote",
    "br",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "li",
    "ol",
    "p",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
SEPARATOR = "\x00"
BREAKABLE = r"[ \t\r\n]"
SHORT_WORDS = "а в и к о с у во да до за из ко на не ни но об от по со".split()

# (what must not be in the prose of a Russian page, what it means)
RULES = [
    (re.compile(BREAKABLE + "+—"), "a breakable space before «—» (a line could start with the dash)"),
    (
        re.compile(r"(?<![\w-])(?:" + "|".join(SHORT_WORDS) + ")" + BREAKABLE, re.IGNORECASE),
        "a breakable space after a one- or two-letter word (a line could end with it)",
    ),
    (re.compile(r"\d" + BREAKABLE + r"+[а-яё%]", re.IGNORECASE), "a breakable space between a number and its unit"),
]
FIX = "The rule is applied at build time by hooks/typography_ru.py (is it listed under `hooks:` in mkdocs.yml?)."


class ArticleText(HTMLParser):
    """The article's prose (text outside code and formulas), the text inside code, and every attribute value."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.prose: list[str] = []
        self.code: list[str] = []
        self.attributes: list[str] = []
        self.in_article = 0
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.in_article += 1
        if self.in_article:
            self.attributes.extend(value for _, value in attrs if value)
            if tag in SKIPPED:
                self.skipping += 1
            if tag in BLOCK:
                self.prose.append(SEPARATOR)

    def handle_startendtag(self, tag, attrs):
        if self.in_article:
            self.attributes.extend(value for _, value in attrs if value)
            if tag in BLOCK:
                self.prose.append(SEPARATOR)

    def handle_endtag(self, tag):
        if self.in_article and tag in SKIPPED and self.skipping:
            self.skipping -= 1
        if self.in_article and tag in BLOCK:
            self.prose.append(SEPARATOR)
        if tag == "article":
            self.in_article -= 1

    def handle_data(self, data):
        if self.in_article:
            (self.code if self.skipping else self.prose).append(data)


def read(page: Path) -> ArticleText:
    parser = ArticleText()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def russian_pages(site: Path) -> list[Path]:
    return sorted(p for p in (site / "ru").rglob("index.html") if "pagefind" not in p.parts)


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    if built_site.returncode != 0:
        pytest.fail("The strict build failed (see test_build.py).\n" + built_site.log[-3000:])
    return built_site.site_dir


def test_russian_pages_keep_words_together(site):
    problems = []
    pages = russian_pages(site)
    assert len(pages) >= 10, f"found only {len(pages)} Russian pages under {site / 'ru'}"
    for page in pages:
        prose = "".join(read(page).prose)
        for pattern, meaning in RULES:
            for match in pattern.finditer(prose):
                around = (
                    prose[max(0, match.start() - 30) : match.end() + 30].replace("\n", " ").replace(SEPARATOR, " | ")
                )
                problems.append(f"{page.relative_to(site)}: {meaning}: …{around}…")
    assert not problems, (
        f"{len(problems)} line break(s) Russian typesetting forbids:\n" + "\n".join(problems[:40]) + "\n" + FIX
    )


def test_russian_pages_use_non_breaking_spaces_in_prose_only(site):
    """Code must stay copyable and attributes (alt text, titles) untouched: no U+00A0 there."""
    problems = []
    for page in russian_pages(site):
        text = read(page)
        if not any(NBSP in chunk for chunk in text.prose):
            problems.append(f"{page.relative_to(site)}: no non-breaking space in the prose at all")
        for where, chunks in (("code or a formula", text.code), ("an attribute", text.attributes)):
            for chunk in chunks:
                if NBSP in chunk:
                    problems.append(f"{page.relative_to(site)}: a non-breaking space in {where}: {chunk[:80]!r}")
                    break
    assert not problems, "\n".join(problems) + "\n" + FIX


# ---------------------------------------------------------------------------------------------------------
# The hook itself, on small inputs


def shown(html: str) -> str:
    return typeset_html(html).replace(NBSP, "~")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("<p>функция — это</p>", "<p>функция~— это</p>"),
        ("<p><code>dy</code> — градиент</p>", "<p><code>dy</code>~— градиент</p>"),
        ("<p>в графе и на ленте</p>", "<p>в~графе и~на~ленте</p>"),
        ("<p>В eager-режиме</p>", "<p>В~eager-режиме</p>"),
        (
            "<p>внутри <code>tf.function</code> с <code>x</code></p>",
            "<p>внутри <code>tf.function</code> с~<code>x</code></p>",
        ),
        ("<p>245 операций, 2.4 раза</p>", "<p>245~операций, 2.4~раза</p>"),
        ("<p>слово в\nстроке</p>", "<p>слово в~строке</p>"),
    ],
)
def test_rules_apply_to_prose(source, expected):
    assert shown(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "<pre><code>x = 1  # в графе — так</code></pre>",
        "<p><code>a — в b</code></p>",
        "<p><kbd>в ответ</kbd></p>",
        "<p><math><mi>в</mi> <mo>—</mo> <mn>2</mn> <mi>с</mi></math></p>",
        '<p><img alt="в графе — 2 операции" src="a b.svg"></p>',
        '<p><a href="#x" title="на ленте — да">ссылка</a></p>',
        "<p><!-- в комментарии — нет --></p>",
        "<p>сова, вода, давно</p>",  # short words only as whole words
    ],
)
def test_code_formulas_attributes_and_comments_are_left_alone(source):
    assert "~" not in shown(source)


def test_nested_code_elements_end_where_they_end():
    assert shown("<pre><code>в <code>x</code> в</code></pre><p>а потом</p>") == (
        "<pre><code>в <code>x</code> в</code></pre><p>а~потом</p>"
    )


def test_only_russian_pages_change():
    from types import SimpleNamespace

    from hooks.typography_ru import on_page_content

    html = "<p>a — b, в графе</p>"
    config = SimpleNamespace(theme={"language": "en"})
    english = SimpleNamespace(file=SimpleNamespace(locale="en"))
    russian = SimpleNamespace(file=SimpleNamespace(locale="ru"))
    assert on_page_content(html, english, config, None) == html
    assert on_page_content(html, russian, config, None) == "<p>a\u00a0— b, в\u00a0графе</p>"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("<p>выходами <strong>и</strong> входами</p>", "<p>выходами <strong>и</strong>~входами</p>"),
        ("<p><em>ещё до</em> <code>tape.gradient</code></p>", "<p><em>ещё до</em>~<code>tape.gradient</code></p>"),
        ("<p><a>в 9</a> раз</p>", "<p><a>в~9</a>~раз</p>"),
        ("<p>слово <strong>x </strong>— это</p>", "<p>слово <strong>x~</strong>— это</p>"),
        ("<table><tr><td>да</td>\n<td>нет</td></tr></table>", "<table><tr><td>да</td>\n<td>нет</td></tr></table>"),
        ("<p><code>x</code> раз</p>", "<p><code>x</code> раз</p>"),
    ],
)
def test_rules_apply_across_inline_tags_but_not_across_blocks(source, expected):
    assert shown(source) == expected


def test_sources_keep_plain_spaces():
    """The rule lives in the hook, not in the sources: a hand-typed U+00A0 (or &nbsp;) is invisible in an editor
    and would make the pages disagree with each other."""
    found = []
    for page in pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            if NBSP in line or "&nbsp;" in line:
                found.append(f"{relative(page)}:{number}")
    assert not found, (
        "non-breaking spaces typed into the sources (replace them with plain spaces; hooks/typography_ru.py adds "
        "them to Russian pages at build time):\n" + "\n".join(found)
    )
