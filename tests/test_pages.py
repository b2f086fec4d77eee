"""Guards on the Markdown pages: twins in both languages, shared snippets, stable anchors, no stray code.

A snippet is shown with one line, ``{* snippets/<chapter>/<nn>_<what>.py *}`` (hooks/snippet_includes.py).

Each failure names the page, the line where it can, and what to do.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from snippet_includes import INCLUDE as SNIPPET  # hooks/snippet_includes.py: {* snippets/<file>.py *}
from snippet_includes import shows_output
from tests.harness import ROOT, all_snippets, output_path, relative

DOCS = ROOT / "docs"
INCLUDE = re.compile(r'--8<--\s+"([^"]+)"')
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
ANCHOR = re.compile(r"\{\s*#([A-Za-z0-9_-]+)[^}]*\}$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)")
PYTHON_LANGS = {"python", "py", "python3", "pycon", "ipython"}


@dataclass
class Page:
    path: Path
    headings: list = field(default_factory=list)  # (line, text, anchor or None)
    includes: list = field(default_factory=list)  # (line, include as written: "{* path *}" or '--8<-- "path"')
    shown: list = field(default_factory=list)  # (line, file the page shows)
    python_blocks: list = field(default_factory=list)  # (line, body lines)

    @property
    def rel(self):
        return relative(self.path)


def parse(path: Path) -> Page:
    page = Page(path)
    fence = None
    block_start, block_lang, body = 0, "", []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        snippet = SNIPPET.match(line)
        if snippet:
            path, section = snippet["path"], snippet["section"]
            plus = " +output" if snippet["output"] else ""
            page.includes.append((number, "{* " + path + (f":{section}" if section else "") + plus + " *}"))
            page.shown.append((number, path))
            if shows_output(snippet):
                page.shown.append((number, path[: -len(".py")] + ".out"))
        for target in INCLUDE.findall(line):
            page.includes.append((number, f'--8<-- "{target}"'))
            page.shown.append((number, target if (ROOT / target).exists() else target.split(":")[0]))
        match = FENCE.match(line)
        if fence is None and match:
            fence, block_start, block_lang, body = match.group(1), number, match.group(2).lower(), []
            continue
        if fence is not None:
            if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                if block_lang in PYTHON_LANGS:
                    page.python_blocks.append((block_start, body))
                fence = None
            else:
                body.append(line)
            continue
        heading = HEADING.match(line)
        if heading:
            anchor = ANCHOR.search(heading.group(2))
            page.headings.append((number, heading.group(2), anchor.group(1) if anchor else None))
    return page


def english_pages():
    return sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".ru.md") and "assets" not in p.parts)


def russian_pages():
    return sorted(p for p in DOCS.rglob("*.ru.md") if "assets" not in p.parts)


def twin(path: Path) -> Path:
    if path.name.endswith(".ru.md"):
        return path.with_name(path.name[: -len(".ru.md")] + ".md")
    return path.with_name(path.stem + ".ru.md")


ALL_PAGES = english_pages() + russian_pages()
IDS = [relative(p) for p in ALL_PAGES]
EN_IDS = [relative(p) for p in english_pages()]


@pytest.mark.parametrize("page", ALL_PAGES, ids=IDS)
def test_page_has_its_twin(page):
    other = twin(page)
    if not other.exists():
        pytest.fail(
            f"{relative(page)} has no {'English' if page.name.endswith('.ru.md') else 'Russian'} twin: "
            f"create {relative(other)} with the same headings (same {{ #anchors }}) and the same snippet includes",
            pytrace=False,
        )


@pytest.mark.parametrize("page", ALL_PAGES, ids=IDS)
def test_every_heading_has_an_explicit_english_anchor(page):
    parsed = parse(page)
    missing = [f"{parsed.rel}:{line}: {text}" for line, text, anchor in parsed.headings if anchor is None]
    if missing:
        pytest.fail(
            "headings without an explicit anchor (add ' { #english-id }' at the end, the same id in both "
            "languages):\n" + "\n".join(missing),
            pytrace=False,
        )


@pytest.mark.parametrize("page", english_pages(), ids=EN_IDS)
def test_twins_share_anchors_and_snippets(page):
    other = twin(page)
    if not other.exists():
        pytest.fail(f"{relative(other)} is missing (see test_page_has_its_twin)", pytrace=False)
    en, ru = parse(page), parse(other)
    en_anchors = [a for _, _, a in en.headings]
    ru_anchors = [a for _, _, a in ru.headings]
    if en_anchors != ru_anchors:
        pytest.fail(
            f"heading anchors drifted between {en.rel} and {ru.rel}; the Russian page must have the same headings, "
            f"in the same order, with the same {{ #ids }}.\n{_first_difference(en.headings, ru.headings, en.rel, ru.rel)}",
            pytrace=False,
        )
    if [t for _, t in en.includes] != [t for _, t in ru.includes]:
        pytest.fail(_include_drift(en, ru), pytrace=False)


def _include_drift(en: Page, ru: Page) -> str:
    """Every include one twin has and the other lacks, with the line to paste and where; else the order."""
    lines = []
    for here, there in ((en, ru), (ru, en)):
        theirs = [t for _, t in there.includes]
        for i, (line, item) in enumerate(here.includes):
            if theirs.count(item) >= [t for _, t in here.includes][: i + 1].count(item):
                continue
            before = next((t for _, t in reversed(here.includes[:i]) if t in theirs), None)
            anchor = next((n for n, t in there.includes if t == before), None) if before else None
            where = f"after line {anchor} ({before})" if anchor else "before the first include"
            lines.append(f"  {there.rel}: paste {where}:\n      {item}\n    (as at {here.rel}:{line})")
    if lines:
        return (
            f"snippet includes drifted between {en.rel} and {ru.rel}; both pages must include the same files "
            f"in the same order. Missing:\n" + "\n".join(lines)
        )
    return (
        f"snippet includes are in a different order in {en.rel} and {ru.rel}; put them in the English order.\n"
        + _first_difference(en.includes, ru.includes, en.rel, ru.rel)
    )


def _first_difference(left, right, left_name, right_name):
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else None
        b = right[i] if i < len(right) else None
        key_a = a[-1] if a else None
        key_b = b[-1] if b else None
        if key_a != key_b:
            where_a = f"{left_name}:{a[0]}: {key_a}" if a else f"{left_name}: (nothing more)"
            where_b = f"{right_name}:{b[0]}: {key_b}" if b else f"{right_name}: (nothing more)"
            return f"first difference, item {i + 1}:\n  {where_a}\n  {where_b}"
    return ""


@pytest.mark.parametrize("page", ALL_PAGES, ids=IDS)
def test_every_include_resolves(page):
    parsed = parse(page)
    broken = [f"{parsed.rel}:{line}: {target}" for line, target in parsed.shown if not (ROOT / target).exists()]
    if broken:
        pytest.fail(
            "includes of files that do not exist (fix the path, or create the snippet and run "
            "`make outputs ONLY=<snippet>`):\n" + "\n".join(broken),
            pytrace=False,
        )


@pytest.mark.parametrize("page", ALL_PAGES, ids=IDS)
def test_code_is_included_with_one_line(page):
    parsed = parse(page)
    pasted = [
        f"{parsed.rel}:{line}"
        for line, body in parsed.python_blocks
        if any(text.strip() and not INCLUDE.search(text) for text in body)
    ]
    wrapped = {}
    for line, include in parsed.includes:
        target = include.removeprefix('--8<-- "').removesuffix('"').split(":")[0]
        if include.startswith('--8<-- "snippets/') and target.endswith((".py", ".out")):
            code = target.removesuffix(".out") + ".py" if target.endswith(".out") else target
            wrapped.setdefault(code, f"{parsed.rel}:{line}: replace the code and output blocks with  {{* {code} *}}")
    message = []
    if pasted:
        message.append(
            "Python code pasted into a page (code must live in snippets/ and be run by the tests). Move it to "
            "snippets/<chapter>/<nn>_<what>.py, run `make outputs ONLY=<that file>`, and include it with one "
            "line, {* snippets/<chapter>/<nn>_<what>.py *}:\n" + "\n".join(pasted)
        )
    if wrapped:
        message.append(
            "a snippet or its output included with --8<-- inside a fence; one line shows the code and its output, "
            "titled in the page's language:\n" + "\n".join(wrapped.values())
        )
    if message:
        pytest.fail("\n\n".join(message), pytrace=False)


def test_every_snippet_and_output_is_shown_on_some_page():
    shown = {(ROOT / target).resolve() for page in ALL_PAGES for _, target in parse(page).shown}
    orphans = []
    for snippet in all_snippets():
        for path in (snippet, output_path(snippet)):
            if path.resolve() not in shown:
                orphans.append(relative(path))
    if orphans:
        pytest.fail(
            "snippet files that no page includes (add  {* snippets/<chapter>/<nn>_<what>.py *}  on the chapter's "
            "page in both languages, or delete them):\n" + "\n".join(orphans),
            pytrace=False,
        )
