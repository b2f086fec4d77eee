"""The prose of the site's pages, for the spelling and glossary tests.

A page is a Markdown file under docs/ or a notebook source under docs/notebooks/ (jupytext percent format:
only its `# %% [markdown]` cells are prose). `prose_lines` blanks out everything that is not prose and keeps
the line count, so a finding can name the line: fenced code blocks, inline code, snippet include lines
(--8<--, {* snippets/... *}), URLs and link targets, HTML tags and comments, LaTeX math ($...$, $$...$$), heading anchors and
attribute lists ({ #id }, {: ... }), admonition and tab markers (the titles stay), identifiers with an
underscore or a digit, dotted names and tokens with a slash (code names, paths and fractions written without
code font), Greek letters and Unicode super- and subscripts (math written without $...$).
"""

import html
import re
from pathlib import Path

from tests.harness import ROOT

DOCS = ROOT / "docs"
DIFFERENCES = ROOT / "versions" / "differences.yml"  # the notes' explanations (hooks/release_notes.py), both languages


def pages() -> list[Path]:
    """Every page in both languages: Markdown pages, notebook sources, and the explanations the notes under snippets
    show (versions/differences.yml)."""
    markdown = [p for p in DOCS.rglob("*.md") if "assets" not in p.parts]
    notebooks = list((DOCS / "notebooks").glob("*.py"))
    return sorted(markdown + notebooks) + ([DIFFERENCES] if DIFFERENCES.exists() else [])


def diagrams() -> list[Path]:
    """The SVG diagrams the pages show; their labels are prose too."""
    return sorted((DOCS / "assets").rglob("*.svg"))


def diagram_labels(svg: Path) -> str:
    """The text of each `<text>` element of an SVG, one per line (tspans joined by spaces)."""
    source = svg.read_text(encoding="utf-8")
    labels = re.findall(r"<text\b[^>]*>(.*?)</text>", source, re.S)
    return "\n".join(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", label)).split()) for label in labels)


def is_russian(page: Path) -> bool:
    return page.name.endswith((".ru.md", ".ru.py"))


def markdown_of(page: Path) -> str:
    """The page's Markdown; for a notebook source, its markdown cells (other lines blank, line count kept); for
    versions/differences.yml, the explanations' lines (keys and YAML syntax blank, line count kept)."""
    text = page.read_text(encoding="utf-8")
    if page.suffix == ".yml":
        return "\n".join(re.sub(r"^\s*(?:(?:en|ru):\s*[|>]?-?|\S+:|#.*)?\s*", "", line) for line in text.splitlines())
    if page.suffix != ".py":
        return text
    lines = []
    in_markdown = False
    for line in text.splitlines():
        if line.startswith("# %%"):
            in_markdown = "[markdown]" in line
            lines.append("")
        elif in_markdown and (line == "#" or line.startswith("# ")):
            lines.append(line[2:])
        else:
            in_markdown = in_markdown and line.strip() == ""
            lines.append("")
    return "\n".join(lines)


FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
NO_BLANK_LINE = r"(?:[^\n]|\n(?![ \t]*\n))"  # any character, but a span may not cross a paragraph break
REPLACEMENTS = [  # applied in order to the whole page; a match is blanked out, keeping its line breaks
    re.compile(r"<!--.*?-->", re.S),  # HTML comments
    re.compile(r"(`+)" + NO_BLANK_LINE.replace("[^\\n]", "[^\\n`]") + r"*?\1"),  # inline code
    re.compile(r"\$\$.*?\$\$", re.S),  # display math
    re.compile(r"(?<![\\\w$])\$(?=\S)" + NO_BLANK_LINE.replace("[^\\n]", "[^\\n$]") + r"*?(?<=\S)\$"),  # $math$
    re.compile(r"\\\(.*?\\\)", re.S),  # inline math \( ... \)
    re.compile(r"(?<=\])\([^)]*\)"),  # link and image targets (the link text and alt text stay)
    re.compile(r"^[ \t]*\[[^\]]+\]:[ \t]*\S+.*$", re.M),  # reference-style link definitions
    re.compile(r"\[\^[^\]]*\]:?"),  # footnote markers
    re.compile(r"https?://\S+"),  # bare URLs
    re.compile(r"<[^>]+>"),  # HTML tags
    re.compile(r"&#?\w+;"),  # HTML entities
    re.compile(r"\{[:#.][^}]*\}|\{[ \t]+#[^}]*\}"),  # { #anchor }, {: .attr }, {.class}
    re.compile(r"^[ \t]*(?:!!!|\?\?\?\+?)[ \t]*[\w-]+(?:[ \t]+[\w-]+)*", re.M),  # admonition marker, type
    re.compile(r"^[ \t]*===\+?", re.M),  # content tab marker
    re.compile(r"\S*_\S*"),  # identifiers such as log1pexp_wrong written without code font
    re.compile(r"\S*[A-Za-z]\.[A-Za-z]\S*"),  # dotted names such as tf.RegisterGradient (and e.g.)
    re.compile(r"[\u0370-\u03ff]"),  # Greek letters: math such as σ(x) written without $...$
    re.compile(r"\S*[\u02b0-\u02ff\u1d2c-\u1dbf\u2070-\u209f]\S*"),  # super/subscripts: eˣ, xⁿ
    re.compile(r"\S*\w/\w\S*"),  # paths, repository names, fractions such as dL/dx
    re.compile(r"\b(?=\w*[^\W\d])(?=\w*\d)\w+\b"),  # words with digits: log1pexp, float64
    re.compile(r"\b(?:\d+|[A-Za-z])-[а-яё]{1,3}\b", re.I),  # Russian ordinals: 8-м, k-ю, n-го
]


def _blank(match: re.Match) -> str:
    return " " + "\n" * match.group(0).count("\n")


def prose_lines(text: str) -> list[str]:
    """The page's lines with everything but prose blanked out (same number of lines)."""
    kept = []
    fence = None
    for line in text.splitlines():
        if fence is not None:
            if line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
            kept.append("")
        elif FENCE.match(line):
            fence = FENCE.match(line).group(1)
            kept.append("")
        elif "--8<--" in line or line.lstrip().startswith("{* "):
            kept.append("")
        else:
            kept.append(line)
    prose = "\n".join(kept)
    for pattern in REPLACEMENTS:
        prose = pattern.sub(_blank, prose)
    lines = prose.split("\n")
    assert len(lines) == len(kept), "prose extraction must keep the line count"
    return lines
