"""hooks/snippet_includes.py: one line becomes the titled code block and, under it, the output block titled in
the page's language; indentation (list items, admonitions) is kept; a section shows only the code."""

from snippet_includes import expand

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
