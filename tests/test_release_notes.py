"""hooks/release_notes.py on the fixture (tests/release_fixture.py): the release line under a page's title and, under a
snippet that prints something else on some release, one collapsed note with the explanation and the real outputs."""

import pytest

from release_matrix import load
from release_notes import add_release_notes, releases_span
from tests.release_fixture import write_repository


@pytest.fixture
def repository(tmp_path):
    return write_repository(tmp_path)


def page(repository, name):
    return (repository / "docs" / name).read_text(encoding="utf-8")


def test_the_release_line_is_under_the_title_in_the_page_language(repository):
    matrix = load(repository)
    english = add_release_notes(page(repository, "a.md"), matrix, "en").splitlines()
    russian = add_release_notes(page(repository, "a.ru.md"), matrix, "ru").splitlines()
    assert english[2].startswith("Outputs on this page checked on TensorFlow 2.15.1, 2.16.2 and 2.21.0;")
    assert russian[2].startswith("Вывод на этой странице проверен на TensorFlow 2.15.1, 2.16.2 и 2.21.0;")
    assert "](versions.md#snippets)" in english[2] and english[3] == "{: .releases-checked }"


def test_a_release_without_current_results_is_not_named_as_checked(repository):
    (repository / "snippets/b/01_keras.out").write_text("1.5\n", encoding="utf-8")
    line = add_release_notes(page(repository, "b.md"), load(repository), "en").splitlines()[2]
    assert line.startswith("Outputs on this page not yet checked on TensorFlow 2.15.1, 2.16.2 and 2.21.0 (")
    (repository / "docs/b.md").write_text(page(repository, "a.md") + "\n{* snippets/b/01_keras.py *}\n")
    line = add_release_notes(page(repository, "b.md"), load(repository), "ru").splitlines()[2]
    assert line.startswith("Вывод на этой странице ещё не проверен на TensorFlow 2.15.1, 2.16.2 и 2.21.0 (")


def test_a_release_without_a_current_result_for_one_snippet_is_named_apart(repository):
    results = repository / "versions/results/tensorflow-2.16.2.yml"
    results.write_text(results.read_text(encoding="utf-8").replace("snippets/a/01_same.py", "snippets/a/gone.py"))
    line = add_release_notes(page(repository, "a.md"), load(repository), "en").splitlines()[2]
    assert line.startswith("Outputs on this page checked on TensorFlow 2.15.1 and 2.21.0;")
    assert line.endswith(" Not yet checked on 2.16.2.")


def test_the_note_follows_the_include_at_its_indentation_with_the_real_output(repository):
    markdown = add_release_notes(page(repository, "a.md"), load(repository), "en")
    include = "    {* snippets/a/02_version.py *}"
    assert markdown.split(include, 1)[1] == (
        "\n\n"
        '    ??? note "On TensorFlow 2.15.1 and 2.16.2 this prints something else"\n'
        "        It prints the release.\n"
        "        {: #a-02-version-on-other-releases }\n"
        "\n"
        '        ```text title="Output on TensorFlow 2.15.1 and 2.16.2"\n'
        "        2.x\n"
        "        ```\n"
    )
    assert "??? note" not in markdown.split(include, 1)[0]  # a/01_same prints the kept output everywhere


def test_a_failing_release_is_titled_as_failing_in_russian_and_a_section_gets_no_note(repository):
    markdown = add_release_notes(page(repository, "b.ru.md"), load(repository), "ru")
    assert '??? note "На TensorFlow 2.15.1 этот код завершается ошибкой"' in markdown
    assert "    AttributeError: module 'keras' has no attribute 'Variable'" in markdown
    assert markdown.count("??? note") == 1
    assert markdown.endswith("{* snippets/b/01_keras.py:part *}\n")


def test_a_page_without_snippets_is_unchanged(repository):
    text = "# Glossary { #glossary }\n\nWords.\n"
    assert add_release_notes(text, load(repository), "en") == text


def test_runs_of_releases_are_named_shortly():
    every = ["2.15.1", "2.16.2", "2.17.1", "2.18.1", "2.19.1", "2.20.0", "2.21.0"]
    assert releases_span(["2.15.1", "2.16.2", "2.17.1", "2.19.1", "2.20.0"], every, "en") == (
        "2.15.1–2.17.1, 2.19.1 and 2.20.0"
    )
    assert releases_span(["2.15.1"], every, "ru") == "2.15.1"
    assert releases_span(["2.15.1", "2.21.0"], every, "ru") == "2.15.1 и 2.21.0"
