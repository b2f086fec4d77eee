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

Highlighting those blocks (Pygments, through pymdownx.highlight) was half of the Markdown conversion of a rebuild,
though a page edit changes few blocks or none. So each highlighted block is kept in ``.cache/highlight/``, keyed on
everything the HTML is made from: the code, every argument of the call (language, title, highlighted lines, the
block's number on the page, ...), every setting of the highlighter, the installed Pygments and pymdownx versions,
``requirements.lock`` and ``HIGHLIGHT_RUNNER``. Inline code and HTML titles (which pymdownx stashes in the page
being converted) are highlighted every time.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import re
from pathlib import Path

import site_languages

ROOT = Path(__file__).resolve().parent.parent
HIGHLIGHT_CACHE = ROOT / ".cache" / "highlight"
HIGHLIGHT_RUNNER = "1"  # bump when a change here changes the HTML of a highlighted block

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


def _environment() -> str:
    import pygments
    import pymdownx

    lock = ROOT / "requirements.lock"
    locked = hashlib.sha256(lock.read_bytes()).hexdigest() if lock.is_file() else ""
    return f"{HIGHLIGHT_RUNNER} pygments {pygments.__version__} pymdownx {pymdownx.__version__} lock {locked}"


def _cached(highlight, environment: str):
    """``Highlight.highlight`` that reuses the HTML of a block highlighted before with the same key."""
    signature = inspect.signature(highlight)
    memory: dict[str, str] = {}  # `mkdocs serve` rebuilds in the same process

    @functools.wraps(highlight)
    def cached_highlight(self, *args, **kwargs):
        call = signature.bind(self, *args, **kwargs)
        call.apply_defaults()
        arguments = {name: value for name, value in call.arguments.items() if name != "self"}
        if arguments["inline"] or self.title_mode == "html" or self.auto_title:
            return highlight(self, *args, **kwargs)
        settings = {name: value for name, value in vars(self).items() if name != "md"}
        key = hashlib.sha256(
            json.dumps([environment, settings, arguments], sort_keys=True, default=repr).encode()
        ).hexdigest()[:32]
        if key in memory:
            return memory[key]
        kept = HIGHLIGHT_CACHE / f"{key}.html"
        try:
            html = memory[key] = kept.read_text(encoding="utf-8")
            return html
        except FileNotFoundError:
            pass
        html = highlight(self, *args, **kwargs)
        if isinstance(html, str):
            HIGHLIGHT_CACHE.mkdir(parents=True, exist_ok=True)
            tmp = kept.with_name(f".{kept.name}.{os.getpid()}.tmp")
            tmp.write_text(html, encoding="utf-8")
            tmp.replace(kept)
            memory[key] = html
        return html

    cached_highlight.cache_environment = environment
    return cached_highlight


def on_config(config):
    """Install the cache (again after `mkdocs serve` reloads this hook: the environment is read each time)."""
    from pymdownx.highlight import Highlight

    original = getattr(Highlight.highlight, "__wrapped__", Highlight.highlight)
    Highlight.highlight = _cached(original, _environment())
    return config


def on_page_markdown(markdown, page, config, files):
    current, _, _ = site_languages.languages(config)
    return expand(markdown, current)
