"""One line includes a snippet and its kept output: ``{* snippets/<chapter>/<nn>_<what>.py *}``.

Before the page's Markdown is converted, each such line (at any indentation, e.g. inside a list item or an
admonition) becomes the two blocks pymdownx.snippets then fills in::

    ```python title="snippets/<chapter>/<nn>_<what>.py"
    --8<-- "snippets/<chapter>/<nn>_<what>.py"
    ```

    ```text title="Output"          <- «Вывод» on Russian pages
    --8<-- "snippets/<chapter>/<nn>_<what>.out"
    ```

``{* snippets/<file>.py:<section> *}`` shows only that section of the file (``# --8<-- [start:<section>]`` …
``[end:<section>]``), titled "<file> (the <section> part)", without output (the output belongs to the whole
file, shown elsewhere on the page). ``{* snippets/<file>.py:<section> +output *}`` shows that section and, under it,
the whole file's output (a recipe's proof: the copied check is the file's other part). The line is the same in
both languages.
"""

from __future__ import annotations

import re

import site_languages

INCLUDE = re.compile(
    r"^(?P<indent>[ \t]*)\{\*\s+(?P<path>snippets/\S+?\.py)(?::(?P<section>[\w-]+))?(?P<output>\s+\+output)?\s+\*\}[ \t]*$",
    re.M,
)
OUTPUT_TITLE = {"en": "Output", "ru": "Вывод"}
SECTION_TITLE = {"en": "{path} (the {section} part)", "ru": "{path} (часть из {section})"}


def shows_output(match: re.Match) -> bool:
    """Whether an include shows the file's output: a whole file, or a section with +output."""
    return not match["section"] or bool(match["output"])


def expand(markdown: str, locale: str) -> str:
    def blocks(match: re.Match) -> str:
        indent, path, section = match["indent"], match["path"], match["section"]
        output = path[: -len(".py")] + ".out"
        if section:
            title = SECTION_TITLE.get(locale, SECTION_TITLE["en"]).format(path=path, section=section)
            lines = [f'```python title="{title}"', f'--8<-- "{path}:{section}"', "```"]
        else:
            lines = [f'```python title="{path}"', f'--8<-- "{path}"', "```"]
        if shows_output(match):
            lines += [
                "",
                f'```text title="{OUTPUT_TITLE.get(locale, OUTPUT_TITLE["en"])}"',
                f'--8<-- "{output}"',
                "```",
            ]
        return "\n".join(indent + line if line else "" for line in lines)

    return INCLUDE.sub(blocks, markdown)


def on_page_markdown(markdown, page, config, files):
    current, _, _ = site_languages.languages(config)
    return expand(markdown, current)
