"""Companion notebooks (docs/notebooks/<name>.py and <name>.ru.py): one per question, in both languages,
executed once at build (cached), rendered by mkdocs-jupyter with their real outputs, downloadable.

The rendering checks read the strict build the session makes (`built_site`), so they cost no extra build.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
from pathlib import Path

import pytest

from tests.harness import ROOT, relative

DOCS = ROOT / "docs"
QUESTIONS = ["registergradient-vs-custom-gradient", "where-dy-comes-from", "second-order", "nth-order"]
LANGS = ("en", "ru")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _load_hook():
    spec = importlib.util.spec_from_file_location("notebooks_hook", ROOT / "hooks" / "notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = _load_hook()
SOURCES = HOOK.sources(DOCS)
NAMES = sorted(SOURCES)
PAGES = [(name, lang) for name in NAMES for lang in LANGS]
PAGE_IDS = [f"{lang}/{name}" for name, lang in PAGES]


def source(name: str, lang: str) -> Path:
    return SOURCES[name][lang]


def prefix(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


def download_name(name: str, lang: str) -> str:
    return f"{name}.ipynb" if lang == "en" else f"{name}.{lang}.ipynb"


def text_of(page_html: str) -> str:
    body = re.sub(r"<script\b.*?</script>|<style\b.*?</style>", " ", page_html, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def heading_ids(nb) -> list[str]:
    ids = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    found = re.search(r'<a id="([^"]+)"></a>', line)
                    ids.append(found.group(1) if found else f"(no id: {line})")
    return ids


def article(page_html: str) -> str:
    """The page's own content (material's article), without the navigation that links every page."""
    match = re.search(r'<article class="md-content__inner md-typeset"[^>]*>(.*?)</article>', page_html, re.S)
    return match.group(1) if match else ""


def built(built_site):
    if built_site.returncode != 0:
        pytest.fail(
            "the strict build failed (see tests/test_build.py); notebook pages cannot be checked", pytrace=False
        )
    return built_site.site_dir


# ---------------------------------------------------------------------------------------------------------
# Sources


def test_one_notebook_per_question_in_both_languages():
    missing = [
        f"docs/notebooks/{q}{'' if lang == 'en' else '.' + lang}.py"
        for q in QUESTIONS
        for lang in LANGS
        if lang not in SOURCES.get(q, {})
    ]
    assert not missing, f"companion notebooks missing: {missing}"
    extra = [f"{name}: {sorted(set(langs) - set(LANGS))}" for name, langs in SOURCES.items() if set(langs) - set(LANGS)]
    assert not extra, f"notebooks in a language the site does not build: {extra}"


@pytest.mark.parametrize("name", NAMES)
def test_code_is_written_once_in_the_english_notebook(name):
    """Code is never translated: the Russian source leaves each code cell empty and the build fills it with
    the English notebook's code (hooks/notebooks.py), so a reader switching language runs the same code."""
    en, ru = (HOOK.read(source(name, lang)) for lang in LANGS)
    written = [number for number, code in enumerate(HOOK.code_cells(ru), start=1) if code.strip()]
    if written:
        pytest.fail(
            f"{relative(source(name, 'ru'))}: code cell(s) {written} hold code; leave each code cell empty "
            f"(a '# %%' line with nothing under it): the code lives in {relative(source(name, 'en'))} only",
            pytrace=False,
        )
    filled = HOOK.with_code_of(HOOK.read(source(name, "ru")), en, "ru")
    assert HOOK.code_cells(filled) == HOOK.code_cells(en)
    assert HOOK.execution_key(filled) == HOOK.execution_key(en), "the two languages must share one execution"


@pytest.mark.parametrize("name", NAMES)
def test_prose_has_the_same_structure_and_the_page_language(name):
    en, ru = (HOOK.read(source(name, lang)) for lang in LANGS)
    kinds = [[c.cell_type for c in nb.cells] for nb in (en, ru)]
    assert kinds[0] == kinds[1], f"{name}: the two languages have different cell sequences (markdown/code): {kinds}"
    assert heading_ids(en) == heading_ids(ru), (
        f"{name}: headings must carry the same explicit ids in both languages "
        f'(<a id="english-id"></a> at the end of the heading line): {heading_ids(en)} vs {heading_ids(ru)}'
    )
    assert all("(no id" not in i for i in heading_ids(en)), (
        f"{name}: a heading without an explicit id: {heading_ids(en)}"
    )
    for cell_en, cell_ru in zip(en.cells, ru.cells):
        if cell_en.cell_type != "markdown":
            continue
        assert not CYRILLIC.search(cell_en.source), (
            f"{relative(source(name, 'en'))}: Russian text in an English cell:\n{cell_en.source}"
        )
        assert CYRILLIC.search(cell_ru.source), (
            f"{relative(source(name, 'ru'))}: a prose cell not in Russian:\n{cell_ru.source}"
        )


# ---------------------------------------------------------------------------------------------------------
# Execution and its cache


def test_cache_key_follows_code_and_tensorflow_not_prose(monkeypatch):
    import jupytext

    base = "# %% [markdown]\n# Some prose\n\n# %%\nprint(1)\n"
    nb = jupytext.reads(base, fmt="py:percent")
    prose = jupytext.reads(base.replace("Some prose", "Другой текст"), fmt="py:percent")
    code = jupytext.reads(base.replace("print(1)", "print(2)"), fmt="py:percent")
    key = HOOK.execution_key(nb)
    assert HOOK.execution_key(prose) == key, "a prose edit must not re-execute a notebook"
    assert HOOK.execution_key(code) != key, "a code edit must re-execute a notebook"
    monkeypatch.setattr(HOOK, "tensorflow_version", lambda: "0.0.0-other")
    assert HOOK.execution_key(nb) != key, "another TensorFlow version must re-execute a notebook"


def test_a_translated_notebook_with_its_own_code_fails_the_build():
    import jupytext
    from mkdocs.exceptions import PluginError

    english = jupytext.reads("# %% [markdown]\n# Prose\n\n# %%\nprint(1)\n", fmt="py:percent")
    with pytest.raises(PluginError, match=r"code cell\(s\) \[1\] hold code"):
        HOOK.with_code_of(
            jupytext.reads("# %% [markdown]\n# Текст\n\n# %%\nprint(2)\n", fmt="py:percent"), english, "x"
        )
    with pytest.raises(PluginError, match="the English notebook has 1 code"):
        HOOK.with_code_of(jupytext.reads("# %% [markdown]\n# Текст\n", fmt="py:percent"), english, "x")


def test_a_notebook_runs_again_only_when_its_code_changes(tmp_path, monkeypatch):
    """The cache at work, on a tiny notebook in a fresh cache: run, rebuild, edit prose, edit code."""
    monkeypatch.setattr(HOOK, "CACHE_DIR", tmp_path / "cache")
    runs = []
    execute = HOOK.execute
    monkeypatch.setattr(HOOK, "execute", lambda nb, label: runs.append(label) or execute(nb, label))
    source = tmp_path / "tiny.py"
    source.write_text("# %% [markdown]\n# Some prose\n\n# %%\nprint(6 * 7)\n")

    def output():
        nb = HOOK.executed_notebook(source, "tiny")
        return "".join(nb.cells[1].outputs[0]["text"])

    assert output() == "42\n" and len(runs) == 1
    assert output() == "42\n" and len(runs) == 1, "an unchanged notebook was executed again"
    source.write_text(source.read_text().replace("Some prose", "Other prose"))
    assert output() == "42\n" and len(runs) == 1, "a prose edit re-executed the notebook"
    source.write_text(source.read_text().replace("6 * 7", "6 * 8"))
    assert output() == "48\n" and len(runs) == 2, "a code edit did not re-execute the notebook"


def test_an_error_in_a_notebook_fails_the_build():
    import jupytext
    from mkdocs.exceptions import PluginError

    nb = jupytext.reads('# %%\nprint("before")\n\n# %%\nraise ValueError("broken cell")\n', fmt="py:percent")
    with pytest.raises(PluginError, match="broken cell"):
        HOOK.execute(nb, "test notebook")


def test_built_notebooks_come_from_the_cache(built_site):
    """After a build, each notebook's outputs sit in the cache under its key (code + TensorFlow + Python),
    so the next build (or `make serve` reload) does not execute it again (tests/test_publish.py checks
    that a second build executes nothing)."""
    built(built_site)
    missing = []
    for name in NAMES:
        for lang in LANGS:
            key = HOOK.execution_key(HOOK.read(source(name, "en")))  # code lives in the English source
            if not (HOOK.CACHE_DIR / "outputs" / f"{key}.json").is_file():
                missing.append(f"{relative(source(name, lang))} (key {key})")
    assert not missing, f"no cached outputs after the build for: {missing}"


# ---------------------------------------------------------------------------------------------------------
# Rendered pages


@pytest.mark.parametrize(("name", "lang"), PAGES, ids=PAGE_IDS)
def test_notebook_page_shows_executed_cells_with_outputs(built_site, name, lang):
    site = built(built_site)
    page_dir = site / prefix(lang) / "notebooks" / name
    page = page_dir / "index.html"
    assert page.is_file(), f"notebook page /{prefix(lang)}notebooks/{name}/ was not built"
    page_html = page.read_text(encoding="utf-8")
    where = f"/{prefix(lang)}notebooks/{name}/"

    # rendered, not the raw notebook (mkdocs-static-i18n x mkdocs-jupyter writes the file's text)
    for raw in ('"cell_type"', '"nbformat"', "# %% [markdown]", '"outputs": ['):
        assert raw not in page_html, f"{where} contains raw notebook text ({raw!r}), not a rendered notebook"
    assert 'class="jupyter-wrapper"' in page_html, f"{where} was not rendered by mkdocs-jupyter"
    assert f'<html lang="{lang}"' in page_html, f"{where} is not marked as a {lang} page"

    # the download: the executed notebook, offered from the page
    download = page_dir / download_name(name, lang)
    assert download.is_file(), f"{where}{download.name} (the .ipynb download) is missing"
    assert f'href="{download.name}"' in page_html, f"{where} has no link to {download.name}"
    nb = json.loads(download.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    expected_code = HOOK.code_cells(HOOK.read(source(name, "en")))  # the Russian notebook runs the same code
    assert ["".join(c["source"]) for c in code] == expected_code, (
        f"{download.name} does not hold the source's code cells"
    )
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), (
        f"{download.name}: cells not executed in order"
    )

    # every code cell ran, printed, and its output is on the page
    text = text_of(page_html)
    prompts = re.findall(r"In\s*(?:&nbsp;)?\[(\d+)\]:", page_html)
    assert prompts == [str(i) for i in range(1, len(code) + 1)], (
        f"{where}: execution prompts {prompts}, expected 1..{len(code)}"
    )
    for number, cell in enumerate(code, start=1):
        assert cell["outputs"], f"{where}: code cell [{number}] has no output (each cell shows what it computes)"
        for output in cell["outputs"]:
            assert output["output_type"] != "error", f"{where}: cell [{number}] raised: {output.get('ename')}"
            assert output.get("name") != "stderr", (
                f"{where}: cell [{number}] wrote to stderr: {''.join(output['text'])[:300]}"
            )
            shown = "".join(output.get("text") or output.get("data", {}).get("text/plain", ""))
            for line in filter(None, (ln.strip() for ln in shown.splitlines())):
                assert line in text, f"{where}: output line of cell [{number}] not on the page: {line!r}"

    # prose in the page's language
    prose = [c for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert prose, f"{download.name} has no prose"
    has_cyrillic = [bool(CYRILLIC.search("".join(c["source"]))) for c in prose]
    assert all(has_cyrillic) if lang == "ru" else not any(has_cyrillic), f"{where}: prose is not all in {lang}"


@pytest.mark.parametrize(("name", "lang"), PAGES, ids=PAGE_IDS)
def test_notebook_page_makes_no_third_party_request(built_site, name, lang):
    page_html = (built(built_site) / prefix(lang) / "notebooks" / name / "index.html").read_text(encoding="utf-8")
    loads = re.findall(r'<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="(https?://[^"]+)"', page_html)
    loads += re.findall(r"import\(\s*[\"'](https?://[^\"']+)", page_html)
    site_url = "https://custom-gradients-faq.github.io/custom-gradients-faq/"
    offsite = [u for u in loads if not u.startswith(site_url)]
    assert not offsite, f"/{prefix(lang)}notebooks/{name}/ would load from another host: {offsite}"


@pytest.mark.parametrize(("name", "lang"), PAGES, ids=PAGE_IDS)
def test_notebook_and_chapter_link_to_each_other(built_site, name, lang):
    site = built(built_site)
    chapter = DOCS / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")
    if not chapter.exists():
        pytest.skip(f"chapter {relative(chapter)} not written yet")
    notebook_html = article((site / prefix(lang) / "notebooks" / name / "index.html").read_text(encoding="utf-8"))
    back = "../../" + ("../" if lang != "en" else "") + f"{prefix(lang)}{name}/"
    assert f'href="{back}"' in notebook_html, (
        f"/{prefix(lang)}notebooks/{name}/ does not link back to its chapter ({back})"
    )
    chapter_html = article((site / prefix(lang) / name / "index.html").read_text(encoding="utf-8"))
    assert f'href="../notebooks/{name}/"' in chapter_html, (
        f"chapter /{prefix(lang)}{name}/ does not link to its notebook (add a 'Run it as a notebook' link to "
        f"notebooks/{name}.ipynb near the end of {relative(chapter)})"
    )


def test_notebook_stylesheet_is_small_and_well_formed(built_site):
    """mkdocs-jupyter inlines ~0.6 MB of JupyterLab CSS into every notebook page; the hook moves the rules the
    pages use into one cached file. A selector list cut at a comma inside `:is(...)` once swallowed the
    rules after it, so every rule is checked for balanced brackets."""
    css_path = built(built_site) / HOOK.CSS_URI
    assert css_path.is_file(), f"{HOOK.CSS_URI} was not written"
    css = css_path.read_text(encoding="utf-8")
    assert len(css) < 60_000, f"{HOOK.CSS_URI} is {len(css)} bytes; the pruning stopped working"
    broken = [prelude for prelude, _ in HOOK._rules(css) if prelude.count("(") != prelude.count(")")]
    assert "['" not in css and "\\n" not in css, f"{HOOK.CSS_URI} holds a Python list repr, not CSS"
    assert not broken, f"selectors with unbalanced brackets in {HOOK.CSS_URI}: {broken[:5]}"
    for rule in (".clipboard-copy-txt{display:none}", ".jp-InputPrompt", ".notebook-actions"):
        assert rule in css, f"{HOOK.CSS_URI} lost a rule the notebook pages need: {rule}"
    for name, lang in PAGES:
        page_html = (built(built_site) / prefix(lang) / "notebooks" / name / "index.html").read_text(encoding="utf-8")
        assert "<style" not in article(page_html), f"/{prefix(lang)}notebooks/{name}/ still inlines a stylesheet"


def test_rendering_is_cached_by_the_notebooks_bytes(tmp_path, monkeypatch):
    """An unchanged notebook is not rendered again (nbconvert is most of a rebuild); a changed one is."""
    monkeypatch.setattr(HOOK, "RENDER_CACHE", tmp_path)
    calls = []

    def render(nb_path, **options):
        calls.append(nb_path)
        return f"<html>{Path(nb_path).read_text()}</html>"

    cached = HOOK._cached("nb2html", render)
    nb = tmp_path / "a.ipynb"
    nb.write_text("one")
    assert cached(nb, theme="light") == cached(nb, theme="light") == "<html>one</html>"
    assert len(calls) == 1, "an unchanged notebook was rendered twice: hooks/notebooks.py's render cache is off"
    nb.write_text("two")
    assert cached(nb, theme="light") == "<html>two</html>" and len(calls) == 2
    cached(nb, theme="dark")
    assert len(calls) == 3, "different render options must not share a cache entry"
