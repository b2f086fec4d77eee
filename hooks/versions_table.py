"""The release table page (docs/versions.md): two lines of it become tables made from the matrix (release_matrix.py).

* ``{* versions/releases.yml *}``: per release, TensorFlow, Keras, Python (and the platform, said once when it is the
  same for all) and how many snippets print the kept output, print something else, fail, or have no current result;
* ``{* versions/results *}``: per page that shows snippets (in the nav's order), a heading linking to it and a table,
  one row per snippet and one column per release: ✓, or a link to the note under the snippet's output
  (hooks/release_notes.py), or "not checked".

The page is written in both languages; the tables are titled in the page's language.
"""

from __future__ import annotations

import re
from pathlib import Path

import release_matrix
import site_languages
from release_matrix import DIFFERENT, FAILING, IDENTICAL, UNCHECKED
from snippet_includes import INCLUDE, shows_output

TABLE = re.compile(r"^\{\*\s+versions/(?P<table>releases\.yml|results)\s+\*\}[ \t]*$", re.M)
TEXT = {
    "en": {
        "platform": "Platform",
        "one platform": "Every release ran on {platform}.",
        "count": {IDENTICAL: "Same output", DIFFERENT: "Other output", FAILING: "Fails", UNCHECKED: "Not checked"},
        "pinned": "{version} (pinned)",
        "snippet": "Snippet",
        IDENTICAL: "✓",
        DIFFERENT: "other output",
        FAILING: "fails",
        UNCHECKED: "not checked",
    },
    "ru": {
        "platform": "Платформа",
        "one platform": "Все выпуски проверены на {platform}.",
        "count": {IDENTICAL: "Тот же вывод", DIFFERENT: "Другой вывод", FAILING: "Ошибка", UNCHECKED: "Не проверено"},
        "pinned": "{version} (основной)",
        "snippet": "Пример кода",
        IDENTICAL: "✓",
        DIFFERENT: "другой вывод",
        FAILING: "ошибка",
        UNCHECKED: "не проверен",
    },
}


def pages_with_snippets(docs: Path, nav_order: list[str]) -> dict[str, list[str]]:
    """English page (e.g. "errors.md") -> the snippets it shows with their output, pages in nav order; a snippet
    shown on several pages belongs to the first."""
    sources = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md") if not p.name.endswith(".ru.md"))
    ordered = [p for p in nav_order if p in sources] + [p for p in sources if p not in nav_order]
    seen: set[str] = set()
    pages = {}
    for page in ordered:
        text = (docs / page).read_text(encoding="utf-8")
        snippets = [m["path"] for m in INCLUDE.finditer(text) if shows_output(m) and m["path"] not in seen]
        if snippets:
            pages[page] = list(dict.fromkeys(snippets))
            seen.update(snippets)
    return pages


def title(docs: Path, page: str, locale: str) -> str:
    """The page's title in the language: its first heading without the { #anchor }."""
    source = docs / (page.removesuffix(".md") + ".ru.md") if locale == "ru" else docs / page
    first = source.read_text(encoding="utf-8").splitlines()[0]
    return re.sub(r"\s*\{[^}]*\}\s*$", "", first.lstrip("# ")).strip()


def wrapped(table: list[str]) -> list[str]:
    """A table in a ``div.release-table`` (site.css: compact cells, snippet names on one line)."""
    return ['<div class="release-table" markdown>', "", *table, "", "</div>"]


def row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def releases_table(matrix: release_matrix.Matrix, snippets: list[str], locale: str) -> str:
    """One row per release; the "not checked" column only when some result is missing, the platform said once when
    every release ran on the same one."""
    text = TEXT[locale]
    kinds = [IDENTICAL, DIFFERENT, FAILING, UNCHECKED]
    counts = [[sum(r.result(s) == kind for s in snippets) for kind in kinds] for r in matrix.releases]
    if not any(c[-1] for c in counts):
        kinds, counts = kinds[:-1], [c[:-1] for c in counts]
    platforms = list(dict.fromkeys(r.platform for r in matrix.releases))
    head = ["TensorFlow", "Keras", "Python"] + ([text["platform"]] if len(platforms) > 1 else [])
    lines = [row(head + [text["count"][k] for k in kinds]), row(["---"] * len(head) + ["--:"] * len(kinds))]
    for i, (release, numbers) in enumerate(zip(matrix.releases, counts)):
        version = release.tensorflow
        if i == len(matrix.releases) - 1:
            version = text["pinned"].format(version=version)
        cells = [version, release.keras, release.python] + ([release.platform] if len(platforms) > 1 else [])
        lines.append(row(cells + [str(n) for n in numbers]))
    lines = wrapped(lines)
    if len(platforms) == 1:
        lines += ["", text["one platform"].format(platform=platforms[0])]
    return "\n".join(lines)


def snippets_tables(matrix: release_matrix.Matrix, docs: Path, pages: dict[str, list[str]], locale: str) -> str:
    text = TEXT[locale]
    blocks = []
    for page, snippets in pages.items():
        anchor = "snippets-" + page.removesuffix(".md").replace("/", "-")
        lines = [f"### [{title(docs, page, locale)}]({page}) {{ #{anchor} }}", ""]
        lines += [row([text["snippet"], *(r.tensorflow for r in matrix.releases)])]
        lines += [row(["---"] + [":-:"] * len(matrix.releases))]
        for snippet in snippets:
            cells = [f"`{snippet.removeprefix('snippets/')}`"]
            for release in matrix.releases:
                kind = release.result(snippet)
                note = matrix.note_for(snippet, release.tensorflow)
                cells.append(f"[{text[kind]}]({page}#{note.anchor})" if note else text[kind])
            lines.append(row(cells))
        blocks.append("\n".join(lines[:2] + wrapped(lines[2:])))
    return "\n\n".join(blocks)


def expand(markdown: str, matrix: release_matrix.Matrix, docs: Path, nav_order: list[str], locale: str) -> str:
    if not TABLE.search(markdown):
        return markdown
    pages = pages_with_snippets(docs, nav_order)
    every = [s for snippets in pages.values() for s in snippets]

    def table(match) -> str:
        if match["table"] == "releases.yml":
            return releases_table(matrix, every, locale)
        return snippets_tables(matrix, docs, pages, locale)

    return TABLE.sub(table, markdown)


def nav_files(nav) -> list[str]:
    """The page files of mkdocs.yml's nav, in order."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [f for value in nav.values() for f in nav_files(value)]
    if isinstance(nav, list):
        return [f for item in nav for f in nav_files(item)]
    return []


def on_page_markdown(markdown, page, config, files):
    if not TABLE.search(markdown):
        return markdown
    root = Path(config.config_file_path).parent
    current, _, _ = site_languages.languages(config)
    matrix = release_matrix.load(root)
    return expand(markdown, matrix, Path(config.docs_dir), nav_files(config.nav), current)
