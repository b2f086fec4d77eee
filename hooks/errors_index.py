"""The symptom index is one page per symptom group (docs/errors/<group>.md); its entry page (docs/errors/index.md)
lists every group and entry, and every address of the one-page index still lands on its content.

Until issue 22 the index was one page, docs/errors.md, and links in the wild (the closing comments of public
threads among them) point at ``errors/#<id>``. Now:

* On the entry page the line ``MARKER`` becomes the list of the groups, in nav order, with each group's entries
  and sub-entries under it: a link to the new place that carries the old id,
  ``[The gradient comes back None](none.md#gradient-is-none){ #gradient-is-none }``, and beside an entry the
  release notes of its snippets (``errors-06-…-on-other-releases``, hooks/release_notes.py), linked the same way.
  Made from the group pages' Markdown in the page's language, so a new entry or a moved one is listed without
  anyone writing it here. Without JavaScript ``errors/#<id>`` shows that visible link.
* With JavaScript, a few lines in the entry page's ``<head>`` (on_post_page, before the stylesheets, so before the
  first paint) replace ``errors/#<id>`` with the new page and anchor; the map is the same list.

tests/test_frozen_ids.py checks the built pages (each old id is a link to an existing anchor of its new page);
tests/site/test_frozen_addresses.py follows every old address in Chromium, with JavaScript and without.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import release_matrix
import site_languages
from snippet_includes import INCLUDE
from versions_table import nav_files

MARKER = "<!-- the groups and their entries: hooks/errors_index.py -->"
FOLDER = "errors/"
HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.*?)\s*\{\s*#(?P<id>[A-Za-z0-9_-]+)\s*\}\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
TEXT = {  # the link to a release note beside its entry: one note, or the snippets' numbers when there are several
    "en": {"one": "output on other releases", "several": "output on other releases: {links}", "snippet": "snippet {n}"},
    "ru": {"one": "вывод на других выпусках", "several": "вывод на других выпусках: {links}", "snippet": "пример {n}"},
}

_moved: dict[str, dict[str, str]] = {}  # locale -> {old id: "none/#old-id"}, for on_post_page


@dataclass
class Entry:
    level: int  # 1: the group (the page's title), 2: an entry, 3: a sub-entry
    title: str
    id: str
    notes: list[str] = field(default_factory=list)  # release-note ids of its snippets


def is_index(page) -> bool:
    return page.file.src_uri.split(".")[0] == FOLDER + "index"


def groups(nav_files: list[str]) -> list[str]:
    """The group pages in nav order: ["errors/error-message.md", ...]."""
    return [f for f in nav_files if f.startswith(FOLDER) and f != FOLDER + "index.md"]


def entries(source: str, matrix: release_matrix.Matrix | None) -> list[Entry]:
    """A group page's headings with their ids, and the release-note ids of the snippets under each."""
    found: list[Entry] = []
    fence = None
    for line in source.splitlines():
        opening = FENCE.match(line)
        if opening and (fence is None or opening[1].startswith(fence)):
            fence = None if fence else opening[1]
            continue
        if fence:
            continue
        heading = HEADING.match(line)
        if heading:
            found.append(Entry(len(heading["level"]), heading["title"], heading["id"]))
            continue
        include = INCLUDE.match(line)
        if include and not include["section"] and found and matrix is not None:
            notes = matrix.notes(include["path"])
            if notes and notes[0].anchor not in found[-1].notes:
                found[-1].notes.append(notes[0].anchor)
    return found


def overview(docs: Path, nav_files: list[str], locale: str, default: str, matrix) -> tuple[list[str], dict[str, str]]:
    """The Markdown list of every group and entry, and {id: its new address relative to the entry page}."""
    lines: list[str] = []
    moved: dict[str, str] = {}
    for page in groups(nav_files):
        source = docs / (page if locale == default else page.removesuffix(".md") + f".{locale}.md")
        target = page.removeprefix(FOLDER)
        for entry in entries(source.read_text(encoding="utf-8"), matrix):
            indent = "    " * (entry.level - 1)
            line = f"{indent}- [{entry.title}]({target}#{entry.id}){{ #{entry.id} }}"
            text = TEXT[locale]
            if len(entry.notes) == 1:
                line += f" ([{text['one']}]({target}#{entry.notes[0]}){{ #{entry.notes[0]} }})"
            elif entry.notes:
                links = [
                    f"[{text['snippet'].format(n=note.split('-')[1])}]({target}#{note}){{ #{note} }}"
                    for note in entry.notes
                ]
                line += " (" + text["several"].format(links=", ".join(links)) + ")"
            lines.append(line)
            for ident in [entry.id, *entry.notes]:
                moved[ident] = target.removesuffix(".md") + "/#" + ident
    return lines, moved


def on_page_markdown(markdown, page, config, files):
    if not is_index(page) or MARKER not in markdown:
        return markdown
    current, default, _ = site_languages.languages(config)
    root = Path(config.config_file_path).parent
    matrix = release_matrix.load(root) if (root / release_matrix.VERSIONS / "releases.yml").exists() else None
    lines, moved = overview(Path(config.docs_dir), nav_files(config.nav), current, default, matrix)
    if not config.use_directory_urls:
        moved = {k: v.replace("/#", ".html#") for k, v in moved.items()}
    _moved[current] = moved
    return markdown.replace(MARKER, "\n".join(lines))


def redirect_script(moved: dict[str, str]) -> str:
    return (
        "<script>(function(){var m=" + json.dumps(moved, separators=(",", ":")) + ";"
        "function go(){var to=m[decodeURIComponent(location.hash.slice(1))];if(to)location.replace(to)}"
        'go();addEventListener("hashchange",go)})()</script>'
    )


def on_post_page(output, page, config):
    if not is_index(page):
        return output
    current, _, _ = site_languages.languages(config)
    moved = _moved.get(current)
    if not moved:
        return output
    charset = re.search(r"<meta charset=[^>]*>", output)
    at = charset.end() if charset else output.index("<head>") + len("<head>")
    return output[:at] + redirect_script(moved) + output[at:]
