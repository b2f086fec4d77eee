"""MkDocs hook: the companion notebooks, executed once, rendered with mkdocs-jupyter's converter in every language.

Sources are jupytext percent scripts, one per language: ``docs/notebooks/<name>.py`` (English: prose and
code) and ``docs/notebooks/<name>.ru.py`` (Russian prose; each code cell left empty, filled with the English
notebook's code cell at the same place). They are never pages themselves. For each build language this hook

1. executes the notebook's code cells with nbclient, unless ``.cache/notebooks/outputs/`` already holds the
   outputs for exactly these code cells under this requirements.lock, TensorFlow and Python (the cache key; prose
   edits do not re-execute, and the English and Russian twins share one execution: the same code). A cell
   that raises fails the build;
2. writes the executed notebook (prose in the page's language + outputs) to ``.cache/notebooks/render/``
   (skipped, with no jupytext or nbformat import, when the source's bytes are those of the last build);
3. puts that ``.ipynb`` into the build as a documentation page ``[ru/]notebooks/<name>/`` and as a
   download ``[ru/]notebooks/<name>/<name>[.ru].ipynb``;
4. renders the page with mkdocs-jupyter's converter (``nb2html``), cached on disk by the notebook's bytes.
5. offers it, on the notebook's page and at the top of its chapter, as a download and as "Open in Colab":
   Colab opens a notebook from a GitHub branch, so the link points at the download as published on the
   ``gh-pages`` branch (tools/publish.py). The executed notebook starts with a note saying which
   TensorFlow made its outputs and what to do when Colab's differs. A link is not a request: the page
   loads nothing from Colab or GitHub.

Why a hook, not the mkdocs-jupyter plugin: mkdocs-static-i18n re-creates every File in its own ``on_files``
(priority -100) and so drops the plugin's notebook wrapper; the notebook then comes out as raw text
(ultrabug/mkdocs-static-i18n#198). This hook runs after it (priority -110), adds a File that says "I am a
page", with the i18n metadata (locale, alternates) the language switcher and the sitemap need, and renders it.

Page HTML: nbconvert's template links MathJax and mermaid from CDNs and inlines ~0.5 MB of CSS into every
page. The hook removes the CDN scripts (the site makes no third-party request) and moves the CSS into one
cached stylesheet, ``assets/notebooks/jupyter.css``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import platform
import re
import tempfile
import time
import types
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url
from pymdownx.slugs import slugify

import site_languages

log = logging.getLogger("mkdocs.hooks.notebooks")

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = "notebooks"  # under docs_dir
CACHE_DIR = Path(os.environ.get("NOTEBOOK_CACHE_DIR", ROOT / ".cache" / "notebooks"))
RUNNER_VERSION = "2"  # bump to invalidate every cached execution
CELL_TIMEOUT_SECONDS = 600
CSS_URI = "assets/notebooks/jupyter.css"
KERNEL_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": "-1", "PYTHONHASHSEED": "0"}

PUBLISHED_BRANCH = "gh-pages"  # where tools/publish.py pushes the built site (and so the .ipynb downloads)

LABELS = {
    "en": {
        "download": "Download this notebook (.ipynb, with outputs)",
        "chapter": "Read the chapter",
        "colab": "Open in Colab",
        "companion": "Companion notebook:",
        "download_short": "Download .ipynb",
        "notebook_page": "Read it on this site",
        "note": (
            "**Outputs made with TensorFlow {tf}.** Colab comes with its own TensorFlow; to see which, run "
            "`import tensorflow as tf; print(tf.__version__)`. If it is another release and a cell prints "
            "something else than shown here, install this one with `%pip install tensorflow=={tf}`, restart "
            "the session (*Runtime → Restart session*) and run the cells again from the top."
        ),
    },
    "ru": {
        "download": "Скачать ноутбук (.ipynb, с выводом)",
        "chapter": "Читать главу",
        "colab": "Открыть в Colab",
        "companion": "Ноутбук к главе:",
        "download_short": "Скачать .ipynb",
        "notebook_page": "Читать на сайте",
        "note": (
            "**Вывод получен с TensorFlow {tf}.** В Colab своя версия TensorFlow; узнать её можно так: "
            "`import tensorflow as tf; print(tf.__version__)`. Если версия другая и ячейка печатает не то, "
            "что показано здесь, установите эту версию командой `%pip install tensorflow=={tf}`, "
            "перезапустите сеанс («Среда выполнения → Перезапустить сеанс») и снова выполните ячейки сверху вниз."
        ),
    },
}

# --------------------------------------------------------------------------------------------------
# Sources and execution (no MkDocs needed: tests call these directly)


def sources(docs_dir: Path) -> dict[str, dict[str, Path]]:
    """``{name: {locale: path}}`` for every ``docs/notebooks/<name>[.<locale>].py``."""
    found: dict[str, dict[str, Path]] = {}
    for path in sorted((Path(docs_dir) / SOURCE_DIR).glob("*.py")):
        parts = path.name[: -len(".py")].split(".")
        name, locale = (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "en")
        found.setdefault(name, {})[locale] = path
    return found


def read(path: Path):
    import jupytext

    return jupytext.read(path, fmt="py:percent")


def code_cells(nb) -> list[str]:
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def with_code_of(nb, code_nb, label: str):
    """A translated notebook (prose only: each code cell left empty) with the English notebook's code cells
    filled in, in order. Code is written once, in the English source."""
    mine = [cell for cell in nb.cells if cell.cell_type == "code"]
    theirs = [cell for cell in code_nb.cells if cell.cell_type == "code"]
    written = [number for number, cell in enumerate(mine, start=1) if cell.source.strip()]
    if written:
        raise PluginError(
            f"Notebook {label}: code cell(s) {written} hold code; a translated notebook leaves each code cell "
            "empty (a '# %%' line with nothing under it): the build takes the code from the English notebook"
        )
    if len(mine) != len(theirs):
        raise PluginError(
            f"Notebook {label}: {len(mine)} empty code cell(s), but the English notebook has {len(theirs)} code "
            "cell(s): keep one '# %%' line per English code cell, in the same places"
        )
    for cell, english in zip(mine, theirs, strict=True):
        cell.source = english.source
        cell.metadata = copy.deepcopy(english.metadata)
    return nb


def tensorflow_version() -> str:
    for dist in ("tensorflow-cpu", "tensorflow"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "none"


def execution_key(nb) -> str:
    """What the outputs depend on: the code, the locked environment (Keras, NumPy... as well as TensorFlow),
    TensorFlow, Python, this runner."""
    payload = {
        "code": code_cells(nb),
        "requirements": hashlib.sha256((ROOT / "requirements.lock").read_bytes()).hexdigest(),
        "tensorflow": tensorflow_version(),
        "python": platform.python_version(),
        "runner": RUNNER_VERSION,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:20]


def execute(nb, label: str) -> list[dict]:
    """Run the code cells in a fresh kernel; return each code cell's outputs and execution count."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    code_only = nbformat.v4.new_notebook()
    code_only.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    code_only.cells = [nbformat.v4.new_code_cell(src) for src in code_cells(nb)]
    with tempfile.TemporaryDirectory() as cwd:
        client = NotebookClient(
            code_only,
            kernel_name="python3",
            timeout=CELL_TIMEOUT_SECONDS,
            allow_errors=False,
            resources={"metadata": {"path": cwd}},
            # TensorFlow's C++ start-up notices go to the kernel's own stderr (kept in a log file),
            # not into the notebook: a cell shows what Python prints.
            extra_arguments=["--IPKernelApp.capture_fd_output=False"],
        )
        kernel_log = Path(cwd, "kernel.log")
        with kernel_log.open("w") as log_file:
            try:
                client.execute(env={**os.environ, **KERNEL_ENV}, stderr=log_file, stdout=log_file)
            except (CellExecutionError, CellTimeoutError) as exc:
                raise PluginError(f"Notebook {label} failed while executing:\n{exc}") from None
            except Exception as exc:  # the kernel died or could not start
                tail = kernel_log.read_text()[-2000:]
                raise PluginError(f"Notebook {label} could not be executed: {exc!r}\n{tail}") from None
    return [{"outputs": c.outputs, "execution_count": c.execution_count} for c in code_only.cells]


def outputs_for(nb, label: str) -> tuple[list[dict], bool]:
    """The code cells' outputs, from the cache or by executing. Returns (outputs, executed_now)."""
    path = CACHE_DIR / "outputs" / f"{execution_key(nb)}.json"
    if path.exists():
        return json.loads(path.read_text()), False
    started = time.monotonic()
    outputs = execute(nb, label)
    log.info(f"Notebook {label}: executed in {time.monotonic() - started:.1f} s (outputs cached)")
    write_atomically(path, json.dumps(outputs, default=dict))
    return outputs, True


def version_note(locale: str) -> str:
    """The Markdown cell after a notebook's title: the TensorFlow its outputs come from, and what to do on
    Colab (or anywhere) when another release is installed."""
    return LABELS.get(locale, LABELS["en"])["note"].format(tf=tensorflow_version())


def executed_notebook(source: Path, label: str, code_source: Path | None = None):
    """The notebook of ``source`` (its code from ``code_source`` if given) with its real outputs."""
    import nbformat

    nb = read(source)
    if code_source is not None:
        nb = with_code_of(nb, read(code_source), label)
    outputs, _ = outputs_for(nb, label)
    nb = copy.deepcopy(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    for cell, result in zip(code, outputs, strict=True):
        cell.outputs = [nbformat.from_dict(o) for o in result["outputs"]]
        cell.execution_count = result["execution_count"]
    for number, cell in enumerate(nb.cells, start=1):
        cell["id"] = f"cell-{number}"  # jupytext makes random ids: the same source must give the same page
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.validate(nb)
    return nb


def executed_notebook_text(source: Path, label: str, locale: str, target: Path, code_source: Path | None = None) -> str:
    """The executed notebook's JSON, written to ``target``. Unchanged source bytes (same TensorFlow, Python,
    runner, hook) reuse ``target`` as it is: no jupytext, no nbformat (about 1 s of imports on every rebuild)."""
    stamp = target.with_name(target.name + ".source")
    source_key = hashlib.sha256(source.read_bytes())
    source_key.update(code_source.read_bytes() if code_source else b"")
    source_key.update(Path(__file__).read_bytes())  # and this hook, which builds the notebook
    source_key.update((ROOT / "requirements.lock").read_bytes())  # as execution_key does: a new lock runs again
    source_key.update(f"{tensorflow_version()} {platform.python_version()} {RUNNER_VERSION}".encode())
    if target.exists() and stamp.exists() and stamp.read_text() == source_key.hexdigest():
        return target.read_text()
    import nbformat

    nb = executed_notebook(source, label, code_source)
    note = nbformat.v4.new_markdown_cell(version_note(locale))
    note["id"] = "tensorflow-note"  # a fixed id, as for the other cells: the same source gives the same file
    nb.cells.insert(1, note)  # after the title
    text = nbformat.writes(nb) + "\n"
    write_if_changed(target, text)
    write_atomically(stamp, source_key.hexdigest())
    return text


def write_atomically(path: Path, text: str) -> None:
    """Builds run in parallel here (tests, `make serve`, other engineers): never expose a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        write_atomically(path, text)


# --------------------------------------------------------------------------------------------------
# MkDocs


class NotebookPage(File):
    """An executed .ipynb outside docs_dir that MkDocs treats as a page (``on_pre_page`` renders it)."""

    def is_documentation_page(self) -> bool:
        return True


def _prefix(locale: str, default: str) -> str:
    return "" if locale == default else f"{locale}/"


def _download_name(name: str, locale: str, default: str) -> str:
    return f"{name}.ipynb" if locale == default else f"{name}.{locale}.ipynb"


def _page_file(config, name: str, locale: str, default: str) -> NotebookPage:
    src_uri = f"{SOURCE_DIR}/{name}.ipynb"
    render_dir = CACHE_DIR / "render" / locale
    return NotebookPage(
        src_uri,
        src_dir=str(render_dir),
        dest_dir=config.site_dir,
        use_directory_urls=config.use_directory_urls,
        dest_uri=f"{_prefix(locale, default)}{SOURCE_DIR}/{name}/index.html",
    )


@event_priority(-110)  # after mkdocs-static-i18n's on_files (-100)
def on_files(files: Files, config) -> Files:
    current, default, langs = site_languages.languages(config)
    docs_dir = Path(config.docs_dir)
    found = sources(docs_dir)
    # The sources are not part of the site.
    for file in list(files):
        if file.src_uri.startswith(f"{SOURCE_DIR}/") and file.src_uri.endswith(".py"):
            files.remove(file)
    for name, by_locale in found.items():
        source = by_locale.get(current) or by_locale.get(default)
        if source is None:
            continue
        label = str(source.relative_to(docs_dir.parent)) if docs_dir.parent in source.parents else source.name
        page = _page_file(config, name, current, default)
        page.notebook_source = source  # what "Edit this page" opens (hooks/page_links.py)
        code_source = by_locale.get(default) if source != by_locale.get(default) else None
        locale = current if current in by_locale else default
        text = executed_notebook_text(source, label, locale, Path(page.abs_src_path), code_source)
        # i18n metadata, as mkdocs-static-i18n sets it on its own files
        alternates = {}
        for locale in langs:
            alternates[locale] = page if locale == current else _page_file(config, name, locale, default)
        page.alternates = alternates
        page.locale = current if current in by_locale else default
        page.locale_alternate_of = current
        page.localization = None if current == default else current
        page.norm_src_uri = page.src_uri
        files.append(page)
        files.append(
            File.generated(
                config,
                f"{_prefix(current, default)}{SOURCE_DIR}/{name}/{_download_name(name, current, default)}",
                content=text.encode(),
            )
        )
    i18n = config.plugins.get("i18n")
    if i18n is not None:  # the sitemap lists documentation pages per language
        i18n.i18n_files_per_language[current] = files.documentation_pages()
    return files


_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
_CDN = re.compile(r"https?://(?:cdn|unpkg|cdnjs)[^\s\"']*")
_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)<a class="anchor-link" href="#[^"]*">¶</a></h\1>', re.S)
_EXPLICIT_ID = re.compile(r'\s*<a id="([^"]+)"></a>\s*')
_TAG = re.compile(r"<[^>]+>")
_slugify = slugify(case="lower")  # Unicode-aware, as for Russian headings on Markdown pages
_css_parts: dict[str, None] = {}


def _headings(html: str, page) -> str:
    """Give every heading its explicit id (``<a id="..."></a>`` in the cell, as on our Markdown pages:
    the same English anchor in both languages), then rebuild the page's table of contents."""
    from mkdocs.structure.toc import get_toc

    tokens: list[dict] = []
    stack: list[dict] = []
    seen: set[str] = set()

    def replace(match: re.Match) -> str:
        level, inner = int(match.group(1)), match.group(2)
        explicit = _EXPLICIT_ID.search(inner)
        inner = _EXPLICIT_ID.sub("", inner).strip()
        name = _TAG.sub("", inner).strip()
        anchor = explicit.group(1) if explicit else _slugify(name, "-")
        base, n = anchor, 1
        while anchor in seen:
            n += 1
            anchor = f"{base}_{n}"
        seen.add(anchor)
        token = {"level": level, "id": anchor, "name": name, "children": []}
        while stack and stack[-1]["level"] >= level:
            stack.pop()
        (stack[-1]["children"] if stack else tokens).append(token)
        stack.append(token)
        if level == 1 and not getattr(page, "_notebook_title", None):
            page._notebook_title = name
        return f'<h{level} id="{anchor}">{inner}<a class="headerlink" href="#{anchor}" title="Permanent link">¶</a></h{level}>'

    html = _HEADING.sub(replace, html)
    page.toc = get_toc(tokens)
    if getattr(page, "_notebook_title", None):
        page.title = page._notebook_title
    return html


def colab_url(config, name: str, locale: str, default: str) -> str | None:
    """Colab's address for the executed notebook as published on the gh-pages branch of ``repo_url``
    (colab.research.google.com/github/<owner>/<repo>/blob/<branch>/<path>), or None off GitHub."""
    repo = urlsplit(config.repo_url or "")
    owner_repo = repo.path.strip("/").removesuffix(".git")
    if repo.netloc != "github.com" or owner_repo.count("/") != 1:
        return None
    path = f"{_prefix(locale, default)}{SOURCE_DIR}/{name}/{_download_name(name, locale, default)}"
    return f"https://colab.research.google.com/github/{owner_repo}/blob/{PUBLISHED_BRANCH}/{path}"


def _insert_after_title(html: str, extra: str) -> str:
    title_end = html.find("</h1>")
    if title_end == -1:
        return extra + html
    title_end += len("</h1>")
    return html[:title_end] + "\n" + extra + html[title_end:]


def _chapter_bar(html: str, page, config, files) -> str:
    """At the top of a chapter that has a notebook: its page, Colab, and the download."""
    src = page.file.src_uri
    name = src.split(".")[0]
    if "/" in src or not src.endswith(".md"):
        return html
    notebook = files.get_file_from_path(f"{SOURCE_DIR}/{name}.ipynb")
    if not isinstance(notebook, NotebookPage):
        return html
    current, default, _ = site_languages.languages(config)
    labels = LABELS.get(current, LABELS["en"])
    download = get_relative_url(f"{notebook.url}{_download_name(name, current, default)}", page.url)
    links = [f'<a class="md-button" href="{get_relative_url(notebook.url, page.url)}">{labels["notebook_page"]}</a>']
    colab = colab_url(config, name, current, default)
    if colab:
        links.append(f'<a class="md-button" href="{colab}">{labels["colab"]}</a>')
    links.append(f'<a class="md-button" href="{download}" download>{labels["download_short"]}</a>')
    bar = f'<p class="notebook-actions">{labels["companion"]} {" ".join(links)}</p>\n'
    return _insert_after_title(html, bar)


def on_page_content(html: str, page, config, files) -> str:
    if not isinstance(page.file, NotebookPage):
        return _chapter_bar(html, page, config, files)
    current, default, _ = site_languages.languages(config)
    # No third-party requests: drop nbconvert's MathJax/mermaid loaders (they point at CDNs).
    html = _SCRIPT.sub(lambda m: "" if _CDN.search(m.group(0)) else m.group(0), html)
    html = _headings(html, page)

    def keep_css(match: re.Match) -> str:
        css = match.group(1).strip()
        # mkdocs-jupyter appends, for .ipynb input, the Python repr of a list of CSS strings ("['...\\n...']"),
        # which is not CSS (its quote opens a string that swallows every rule after it). The template already
        # inlined the same rules properly.
        if not css.startswith(("['", '["')):
            _css_parts.setdefault(css)
        return ""

    html = _STYLE.sub(keep_css, html)
    name = Path(page.file.src_uri).stem
    depth = page.file.dest_uri.count("/")
    up = "../" * depth
    labels = LABELS.get(current, LABELS["en"])
    chapter = files.get_file_from_path(f"{name}.md")
    links = [
        f'<a class="md-button md-button--primary" href="{_download_name(name, current, default)}" download>'
        f"{labels['download']}</a>"
    ]
    colab = colab_url(config, name, current, default)
    if colab:
        links.append(f'<a class="md-button" href="{colab}">{labels["colab"]}</a>')
    if chapter is not None:
        links.append(f'<a class="md-button" href="{up}{chapter.url}">{labels["chapter"]}</a>')
    bar = f'<p class="notebook-actions">{" ".join(links)}</p>\n'
    stylesheet = f'<link rel="stylesheet" href="{up}{CSS_URI}">\n'
    return stylesheet + _insert_after_title(html, bar)


EXTRA_CSS = """/* hooks/notebooks.py: long code lines scroll instead of being cut; outputs sit in a box like the
   site's code blocks; the download/chapter buttons under the title. */
.jupyter-wrapper .jp-InputArea-editor{overflow-x:auto}
.jupyter-wrapper .jp-OutputArea-output pre{overflow-x:auto;padding:.5em .8em;background:var(--md-code-bg-color);border-radius:.1rem}
.notebook-actions{margin:0 0 1em}
.notebook-actions .md-button{margin:0 .5em .5em 0;font-size:.7rem;padding:.4em 1.2em}
"""
_CLASS_ATTR = re.compile(r'class="([^"]*)"')
_SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_used_classes: set[str] = set()


def _rules(css: str):
    """Top-level ``(prelude, body)`` pairs of a stylesheet (comments removed)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    i, n = 0, len(css)
    while i < n:
        brace = css.find("{", i)
        semi = css.find(";", i)
        if brace == -1:
            return
        if semi != -1 and semi < brace:  # @charset/@import statement
            yield css[i : semi + 1].strip(), None
            i = semi + 1
            continue
        depth, j = 1, brace + 1
        while j < n and depth:
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        yield css[i:brace].strip(), css[brace + 1 : j - 1]
        i = j


def _can_match(selector: str, used: set[str]) -> bool:
    if re.search(r"\S\s+:root", selector):  # ".jupyter-wrapper :root" matches nothing
        return False
    return set(_SELECTOR_CLASS.findall(selector)) <= used


def _declarations(body: str) -> list[str]:
    out, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == ";" and depth == 0:
            out.append(body[start:i])
            start = i + 1
    out.append(body[start:])
    return [d.strip() for d in out if d.strip()]


def _split_selectors(prelude: str) -> list[str]:
    """Split a selector list at its top-level commas (not inside ``:is(a, b)``)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return parts


def _prune_rules(css: str, used: set[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for prelude, body in _rules(css):
        if body is None:
            continue
        if prelude.startswith("@media") or prelude.startswith("@supports"):
            inner = _prune_rules(body, used)
            if inner:
                out.append((prelude, "".join(f"{p}{{{b}}}" for p, b in inner)))
        elif prelude.startswith("@"):
            out.append((prelude, body))
        else:
            selectors = [sel for sel in _split_selectors(prelude) if _can_match(sel, used)]
            if selectors:
                out.append((",".join(selectors), body))
    return list(dict.fromkeys(out))


def prune_css(css: str, used: set[str]) -> str:
    """Keep the rules whose selectors can match an element of the notebook pages (by class names), and
    the custom properties those rules use. mkdocs-jupyter ships all of JupyterLab's CSS (~0.6 MB) inline
    in every page; a notebook page needs a small part of it."""
    rules = _prune_rules(css, used)
    while True:  # drop custom properties nothing refers to (a property may refer to another one)
        text = "".join(body for _, body in rules)
        referenced = set(re.findall(r"var\(\s*(--[\w-]+)", text))
        changed = False
        kept = []
        for prelude, body in rules:
            if prelude.startswith("@"):
                kept.append((prelude, body))
                continue
            decls = [d for d in _declarations(body) if not d.startswith("--") or d.split(":")[0].strip() in referenced]
            new_body = ";".join(decls)
            changed |= new_body != body
            if decls:
                kept.append((prelude, new_body))
        rules = kept
        if not changed:
            break
    return "\n".join(f"{prelude}{{{body}}}" for prelude, body in rules)


def on_post_page(output: str, page, config) -> str:
    if isinstance(page.file, NotebookPage):
        for attr in _CLASS_ATTR.findall(output):
            _used_classes.update(attr.split())
    return output


def on_post_build(config) -> None:
    if _css_parts:
        out = Path(config.site_dir) / CSS_URI
        out.parent.mkdir(parents=True, exist_ok=True)
        css = "\n".join(_css_parts)
        out.write_text(pruned_css(css, _used_classes) + "\n" + EXTRA_CSS)


def pruned_css(css: str, used: set[str]) -> str:
    """``prune_css``, kept on disk by its input (the same on every build until nbconvert or a page changes)."""
    key = hashlib.sha256(repr((css, sorted(used))).encode()).hexdigest()
    path = CACHE_DIR / "css" / f"{key}.css"
    if path.exists():
        return path.read_text()
    pruned = prune_css(css, used)
    write_atomically(path, pruned)
    return pruned


# --------------------------------------------------------------------------------------------------
# Rendering: the hook renders its notebook pages itself, with mkdocs-jupyter's converter (the plugin is not
# configured: importing it, with nbconvert and jupytext, cost about 1.5 s of every build, and it read every
# Markdown page with jupytext). nbconvert's HTML export is most of a cold rebuild (about 0.4 s a notebook
# page); the executed notebook is the same from build to build, so its HTML is kept on disk, keyed on the
# notebook's bytes, the options and the mkdocs-jupyter/nbconvert versions (pinned exactly in pyproject.toml).

RENDER_CACHE = CACHE_DIR / "html"
NB2HTML_OPTIONS = {  # what mkdocs-jupyter's plugin passed with this site's old plugin settings
    "execute": False,
    "kernel_name": "",
    "theme": "",
    "allow_errors": False,
    "show_input": True,
    "no_input": False,
    "no_prompt": False,
    "remove_tag_config": {},
    "highlight_extra_classes": "",
    "include_requirejs": False,
    "custom_mathjax_url": "",
}


def _render_key(nb_path, options) -> str:
    versions = f"{metadata.version('mkdocs-jupyter')} {metadata.version('nbconvert')}"
    digest = hashlib.sha256(Path(nb_path).read_bytes())
    digest.update(repr((sorted(options.items()), versions)).encode())
    return digest.hexdigest()


def _cached(kind: str, render):
    def cached_render(nb_path, **options):
        path = RENDER_CACHE / f"{kind}-{_render_key(nb_path, options)}.json"
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
        result = render(nb_path, **options)
        write_atomically(path, json.dumps(result))
        return result

    return cached_render


def _nb2html(nb_path, **options) -> str:
    from mkdocs_jupyter import convert  # nbconvert: imported only when a page is not in the cache

    return convert.nb2html(str(nb_path), **options)


notebook_html = _cached("nb2html", _nb2html)


def on_pre_page(page, config, files):
    """A notebook page's content is the notebook as HTML (``on_page_content`` then fixes headings, CSS)."""
    if isinstance(page.file, NotebookPage):

        def render(self, config, files):
            self.content = notebook_html(self.file.abs_src_path, **NB2HTML_OPTIONS)

        page.render = types.MethodType(render, page)
    return page
