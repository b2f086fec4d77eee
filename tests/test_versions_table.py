"""hooks/versions_table.py on the fixture (tests/release_fixture.py): the release table with its counts and the
snippet tables, one per page in the nav's order, each cell ✓ or a link to the snippet's note."""

import pytest

from release_matrix import load
from tests.release_fixture import write_repository
from versions_table import expand, nav_files, pages_with_snippets

PAGE = "Intro.\n\n{* versions/releases.yml *}\n\n## Snippets { #snippets }\n\n{* versions/results *}\n"


@pytest.fixture
def repository(tmp_path):
    return write_repository(tmp_path)


def test_the_release_table_counts_each_result_and_marks_the_pinned_release(repository):
    markdown = expand(PAGE, load(repository), repository / "docs", ["a.md", "b.md"], "en")
    assert "| TensorFlow | Keras | Python | Same output | Other output | Fails |" in markdown
    assert "| 2.15.1 | 2.15.0 | 3.11 | 1 | 1 | 1 |" in markdown
    assert "| 2.21.0 (pinned) | 3.13.0 | 3.13 | 3 | 0 | 0 |" in markdown
    assert "Every release ran on Linux x86_64." in markdown


def test_a_missing_result_adds_the_not_checked_column(repository):
    (repository / "snippets/a/01_same.py").write_text('print("changed")\n', encoding="utf-8")
    markdown = expand(PAGE, load(repository), repository / "docs", ["a.md", "b.md"], "ru")
    assert "| Тот же вывод | Другой вывод | Ошибка | Не проверено |" in markdown
    assert "| 2.21.0 (основной) | 3.13.0 | 3.13 |" in markdown
    assert "Все выпуски проверены на Linux x86_64." in markdown
    assert "| `a/01_same.py` | не проверен | не проверен | не проверен |" in markdown


def test_each_page_gets_a_table_of_its_snippets_linking_to_their_notes(repository):
    markdown = expand(PAGE, load(repository), repository / "docs", ["b.md", "a.md"], "ru")
    assert markdown.index("### [Страница B](b.md) { #snippets-b }") < markdown.index("### [Страница A](a.md)")
    assert "| Пример кода | 2.15.1 | 2.16.2 | 2.21.0 |" in markdown
    assert "| `b/01_keras.py` | [ошибка](b.md#b-01-keras-on-other-releases) | ✓ | ✓ |" in markdown
    note = "a.md#a-02-version-on-other-releases"
    assert f"| `a/02_version.py` | [другой вывод]({note}) | [другой вывод]({note}) | ✓ |" in markdown


def test_pages_and_nav():
    assert nav_files([{"Home": "index.md"}, {"Part": ["a.md", {"B": "b.md"}]}]) == ["index.md", "a.md", "b.md"]


def test_a_snippet_shown_on_two_pages_belongs_to_the_first(repository):
    (repository / "docs/c.md").write_text("# C { #c }\n\n{* snippets/a/01_same.py *}\n", encoding="utf-8")
    pages = pages_with_snippets(repository / "docs", ["c.md", "a.md"])
    assert pages == {"c.md": ["snippets/a/01_same.py"], "a.md": ["snippets/a/02_version.py"], "b.md": pages["b.md"]}


def test_a_page_without_the_table_lines_is_unchanged(repository):
    assert expand("# Page { #p }\n", load(repository), repository / "docs", [], "en") == "# Page { #p }\n"
