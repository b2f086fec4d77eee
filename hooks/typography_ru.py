"""Russian typography at build time: non-breaking spaces where Russian typesetting wants them.

The Markdown sources keep plain spaces (easy to edit, diff and search); this hook applies the usual rules to
the rendered HTML of Russian pages only, in text outside code and formulas:

* before an em dash: a line never starts with «—» (`функция — это` keeps `функция —` together);
* after a one- or two-letter preposition, conjunction or particle (`в графе`, `и градиент`, `не вызывается`):
  a line never ends with `в`;
* between a number and the word after it, its unit or counted noun (`245 операций`, `2.4 раза`).

Only text nodes change. Tags and their attributes (alt text, titles, links) stay as they are, and so does
everything inside `pre`, `code`, `kbd`, `samp`, `math`, `svg`, `script`, `style` and `textarea`: code is
copied by readers, and a non-breaking space in it would break their Python. The space becomes the character
U+00A0 itself, not `&nbsp;`, so the search index and the browser tests read the words as before
(Pagefind splits words at any Unicode whitespace).
"""

from __future__ import annotations

import re

NBSP = "\u00a0"

# Elements whose text is not prose: nothing inside them changes.
_SKIP = frozenset({"pre", "code", "kbd", "samp", "math", "svg", "script", "style", "textarea"})
# A tag, a comment or a doctype; everything between two of them is a text node.
_TAG = re.compile(r"<!--.*?-->|<![^>]*>|<(/?)([a-zA-Z][\w:-]*)\b[^>]*?(/?)>", re.DOTALL)
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)

_SPACE = r"[ \t\r\n]+"
_SHORT_WORDS = "а в и к о с у во да до за из ко на не ни но об от по со"  # prepositions, conjunctions, particles
_RULES = [
    (re.compile(_SPACE + r"(?=—)"), NBSP),  # before an em dash
    (re.compile(r"(?<![\w-])(" + "|".join(_SHORT_WORDS.split()) + ")" + _SPACE, re.IGNORECASE), r"\1" + NBSP),
    (re.compile(r"(?<=\d)" + _SPACE + r"(?=[а-яёА-ЯЁ%])"), NBSP),  # a number and its unit
]


def typeset(text: str) -> str:
    """One text node (no tags) with the Russian non-breaking spaces applied."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


# Elements that end a run of text: no word joins across them (a table cell ends where the next one starts).
_BLOCK = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)
_ENDS_WITH_SHORT_WORD = re.compile(r"(?<![\w-])(?:" + "|".join(_SHORT_WORDS.split()) + r")$", re.IGNORECASE)
_LEADING_SPACE = re.compile(r"^" + _SPACE)
_TRAILING_SPACE = re.compile(_SPACE + r"$")


def _joins_previous(previous: str, text: str) -> bool:
    """Whether the space `text` starts with must not break: `previous` (the text before it in the same block,
    across inline tags such as <a> or <strong>) ends with a short word («<em>ещё до</em> <code>x</code>») or
    a number followed here by its unit («<a>в 9</a> раз»)."""
    if _ENDS_WITH_SHORT_WORD.search(previous):  # whatever follows: a word, or code such as «до <code>x</code>»
        return True
    following = text.lstrip(" \t\r\n")[:1]
    return previous[-1:].isdigit() and bool(re.match(r"[а-яёА-ЯЁ%]", following))


def typeset_html(html: str) -> str:
    """Apply the rules to the text of `html` outside the elements in _SKIP, across inline tags within a block."""
    out: list[str] = []
    skipping: str | None = None  # the name of the outermost skipped element we are inside
    depth = 0  # how many of that element are open (a <code> inside a <code>)
    previous = ""  # the prose of the current block so far (reset by a block tag or by code)
    previous_at: int | None = None  # index in `out` of the last prose text node of the current block

    def prose(text: str) -> None:
        nonlocal previous, previous_at
        if not text:
            return
        if previous and _LEADING_SPACE.match(text) and _joins_previous(previous, text):
            text = _LEADING_SPACE.sub(NBSP, text, count=1)
        if text.lstrip(" \t\r\n").startswith("—") and previous_at is not None and not _LEADING_SPACE.match(text):
            out[previous_at] = _TRAILING_SPACE.sub(NBSP, out[previous_at])  # «слово <a>x</a> —»: the space before
        text = typeset(text)
        out.append(text)
        previous, previous_at = (previous + text)[-40:], len(out) - 1

    position = 0
    for tag in _TAG.finditer(html):
        text = html[position : tag.start()]
        if skipping:
            out.append(text)
        else:
            prose(text)
        out.append(tag.group(0))
        position = tag.end()
        closing, name, self_closing = tag.group(1), (tag.group(2) or "").lower(), tag.group(3)
        if skipping:
            if name == skipping and not self_closing:
                depth += -1 if closing else 1
                if depth == 0:
                    skipping = None
                    previous, previous_at = "x", None  # code is no word of the sentence
        elif name in _SKIP and not closing and not self_closing:
            skipping, depth = name, 1
        elif name in _BLOCK:
            previous, previous_at = "", None
    tail = html[position:]
    if skipping:
        out.append(tail)
    else:
        prose(tail)
    return "".join(out)


def _is_russian(page, config) -> bool:
    locale = getattr(page.file, "locale", None)
    if locale is None:  # not built by mkdocs-static-i18n: the theme's language is the page's
        locale = config.theme.get("language")
    return locale == "ru"


def on_page_content(html, page, config, files):
    return typeset_html(html) if _is_russian(page, config) else html
