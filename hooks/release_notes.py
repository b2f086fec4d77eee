"""Which TensorFlow releases print a page's outputs (hooks/release_matrix.py), said on the page in its language.

Before the snippet includes are expanded (so this hook is listed before hooks/snippet_includes.py), a page that
includes snippets with their output (``{* snippets/<chapter>/<file>.py *}``) gets:

* under its title, one line naming the releases its outputs were checked on, linking to the table (docs/versions.md);
* under each snippet that prints something else on some release, a collapsed note per distinct output: that
  release's real output (releases with the same output grouped) and the written sentence that explains it
  (versions/differences.yml). The note's first paragraph has the id the table links to (``Note.anchor``).
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

import release_matrix
import site_languages
from snippet_includes import INCLUDE, shows_output

TEXT = {
    "en": {
        "checked": "Outputs on this page checked on TensorFlow {releases}; where a release prints something else, "
        "a note under the output shows it ([all releases]({table})).",
        "unchecked": " Not yet checked on {releases}.",
        "none": "Outputs on this page not yet checked on TensorFlow {releases} ([all releases]({table})).",
        "different": "On TensorFlow {releases} this prints something else",
        "failing": "On TensorFlow {releases} this fails",
        "output": "Output on TensorFlow {releases}",
        "and": " and ",
    },
    "ru": {
        "checked": "Вывод на этой странице проверен на TensorFlow {releases}; если какой-то выпуск печатает другое, "
        "это показано в примечании под выводом ([все выпуски]({table})).",
        "unchecked": " Ещё не проверен на {releases}.",
        "none": "Вывод на этой странице ещё не проверен на TensorFlow {releases} ([все выпуски]({table})).",
        "different": "На TensorFlow {releases} вывод другой",
        "failing": "На TensorFlow {releases} этот код завершается ошибкой",
        "output": "Вывод на TensorFlow {releases}",
        "and": " и ",
    },
}
TABLE = "versions.md#snippets"
_matrix: release_matrix.Matrix | None = None


def releases_text(releases: list[str], locale: str) -> str:
    """["2.15.1", "2.16.2", "2.21.0"] -> "2.15.1, 2.16.2 and 2.21.0" (и in Russian)."""
    if len(releases) < 2:
        return "".join(releases)
    return ", ".join(releases[:-1]) + TEXT[locale]["and"] + releases[-1]


def checked_line(matrix: release_matrix.Matrix, snippets: list[str], locale: str, table: str = TABLE) -> str:
    text = TEXT[locale]
    checked = matrix.checked_on(snippets)
    if not checked:
        return text["none"].format(releases=releases_text([r.tensorflow for r in matrix.releases], locale), table=table)
    line = text["checked"].format(releases=releases_text(checked, locale), table=table)
    unchecked = [r.tensorflow for r in matrix.releases if r.tensorflow not in checked]
    return line + (text["unchecked"].format(releases=releases_text(unchecked, locale)) if unchecked else "")


def releases_span(releases: list[str], every: list[str], locale: str) -> str:
    """Releases named shortly: a run of three or more consecutive releases of ``every`` as "2.16.2–2.20.0"."""
    runs: list[list[str]] = []
    for release in releases:
        if runs and every.index(release) == every.index(runs[-1][-1]) + 1:
            runs[-1].append(release)
        else:
            runs.append([release])
    parts = [f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(run) for run in runs]
    return releases_text(", ".join(parts).split(", "), locale)


def note_block(notes: list[release_matrix.Note], every: list[str], locale: str) -> list[str]:
    """One collapsed admonition under a snippet's output, its Markdown lines unindented: the sentences that explain
    the differences (with the id the table links to), then each distinct output, titled with its releases."""
    text = TEXT[locale]
    kinds = [kind for kind in ("failing", "different") if any(n.kind == kind for n in notes)]
    titles = []
    for kind in kinds:
        releases = [r for n in notes if n.kind == kind for r in n.releases]
        titles.append(text[kind].format(releases=releases_span(sorted(releases, key=every.index), every, locale)))
    title = "; ".join(titles[:1] + [t[0].lower() + t[1:] for t in titles[1:]])
    sentences = list(dict.fromkeys(s for note in notes for s in note.explanations.get(locale, [])))
    body = [" ".join(sentences) or "&nbsp;", f"{{: #{notes[0].anchor} }}", ""]
    for note in notes:
        output = note.output.rstrip("\n")
        fence = "`" * max(3, 1 + max(map(len, re.findall("`+", output)), default=0))
        names = releases_span(note.releases, every, locale)
        body += [f'{fence}text title="{text["output"].format(releases=names)}"', *output.split("\n"), fence, ""]
    return [f'??? note "{title}"', *("    " + line if line else "" for line in body[:-1])]


def add_release_notes(markdown: str, matrix: release_matrix.Matrix, locale: str, table: str = TABLE) -> str:
    """The page with its release line under the title and a note under each snippet that differs somewhere."""
    snippets = [m["path"] for m in INCLUDE.finditer(markdown) if shows_output(m)]
    if not snippets:
        return markdown

    def with_notes(match) -> str:
        if not shows_output(match):
            return match.group(0)
        notes = matrix.notes(match["path"])
        if not notes:
            return match.group(0)
        lines = ["", *note_block(notes, [r.tensorflow for r in matrix.releases], locale)]
        return "\n".join([match.group(0), *(match["indent"] + line if line else "" for line in lines)])

    markdown = INCLUDE.sub(with_notes, markdown)
    lines = markdown.split("\n")
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), -1)
    line = checked_line(matrix, list(dict.fromkeys(snippets)), locale, table)
    lines[title + 1 : title + 1] = ["", line, "{: .releases-checked }"]
    return "\n".join(lines)


def on_pre_build(config):
    global _matrix
    _matrix = None  # read again on every build (mkdocs serve)


def on_page_markdown(markdown, page, config, files):
    global _matrix
    if _matrix is None:
        root = Path(config.config_file_path).parent
        if not (root / release_matrix.VERSIONS / "releases.yml").exists():
            raise PluginError(f"{root / release_matrix.VERSIONS / 'releases.yml'} is missing: the release matrix of "
                              "`make versions` (see README.md), which this hook shows on the pages")  # fmt: skip
        _matrix = release_matrix.load(root)
    current, _, _ = site_languages.languages(config)
    depth = page.file.src_uri.count("/")
    return add_release_notes(markdown, _matrix, current, "../" * depth + TABLE)
