"""hooks/snippet_includes.py: one line becomes the titled code block and, under it, the output block titled in
the page's language; indentation (list items, admonitions) is kept; a section shows only the code."""

from snippet_includes import INCLUDE, expand, shows_output

CODE_AND_OUTPUT = """\
```python title="snippets/a/01_x.py"
--8<-- "snippets/a/01_x.py"
```

```text title="{title}"
--8<-- "snippets/a/01_x.out"
```"""


def test_one_line_gives_code_and_output_titled_in_the_page_language():
    assert expand("{* snippets/a/01_x.py *}", "en") == CODE_AND_OUTPUT.format(title="Output")
    assert expand("{* snippets/a/01_x.py *}", "ru") == CODE_AND_OUTPUT.format(title="Вывод")


def test_indentation_is_kept_on_every_line_but_the_blank_one():
    expanded = expand("1. Item:\n\n    {* snippets/a/01_x.py *}\n", "en").splitlines()
    assert expanded[2:] == [
        ("    " + line if line else "") for line in CODE_AND_OUTPUT.format(title="Output").splitlines()
    ]


def test_a_section_shows_only_that_part_of_the_code():
    assert expand("{* snippets/a/01_x.py:docstring *}", "ru") == (
        '```python title="snippets/a/01_x.py (часть из docstring)"\n--8<-- "snippets/a/01_x.py:docstring"\n```'
    )


def test_a_section_with_output_shows_that_part_and_the_whole_files_output():
    assert expand("  {* snippets/a/01_x.py:recipe +output *}", "ru") == "\n".join(
        ("  " + line if line else "")
        for line in [
            '```python title="snippets/a/01_x.py (часть из recipe)"',
            '--8<-- "snippets/a/01_x.py:recipe"',
            "```",
            "",
            '```text title="Вывод"',
            '--8<-- "snippets/a/01_x.out"',
            "```",
        ]
    )


def test_only_whole_lines_are_includes():
    text = "Write `{* snippets/a/01_x.py *}` on its own line."
    assert expand(text, "en") == text


def test_a_kept_highlighted_block_is_the_html_pygments_makes(tmp_path, monkeypatch):
    """The highlight cache (.cache/highlight/) gives back what highlighting gives, and anything that changes the
    HTML (here the title, the language, the code) changes the key."""
    import markdown
    from pymdownx.highlight import Highlight

    import snippet_includes

    monkeypatch.setattr(snippet_includes, "HIGHLIGHT_CACHE", tmp_path)
    monkeypatch.setattr(Highlight, "highlight", getattr(Highlight.highlight, "__wrapped__", Highlight.highlight))
    pages = [
        '```python title="a.py"\nx = 1  # one\n```\n',
        '```python title="b.py"\nx = 1  # one\n```\n',
        '```text title="a.py"\nx = 1  # one\n```\n',
        '```python title="a.py"\nx = 2  # one\n```\n',
    ]

    def convert(page: str) -> str:
        return markdown.markdown(page, extensions=["pymdownx.highlight", "pymdownx.superfences"])

    plain = [convert(page) for page in pages]
    snippet_includes.on_config({})
    assert [convert(page) for page in pages] == plain, "a first, uncached highlight differs from Pygments'"
    assert len(list(tmp_path.glob("*.html"))) == len(pages), "each different block must have a key of its own"
    assert [convert(page) for page in pages] == plain, "a kept block differs from what highlighting makes"


def test_the_guards_know_which_includes_show_the_output():
    """tests/test_pages.py (orphans), the release notes and the version table count a file's output as shown by a
    whole-file include and by a section with +output, not by a bare section."""
    shown = {
        line: shows_output(INCLUDE.match(line))
        for line in (
            "{* snippets/a/01_x.py *}",
            "{* snippets/a/01_x.py:recipe *}",
            "{* snippets/a/01_x.py:recipe +output *}",
        )
    }
    assert list(shown.values()) == [True, False, True], shown
