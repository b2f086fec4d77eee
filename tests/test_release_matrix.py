"""hooks/release_matrix.py: the matrix read from `make versions`' files (tests/release_fixture.py), current results only,
other outputs grouped into notes, and what versions/differences.yml lacks or holds in vain."""

import pytest

from release_matrix import UNCHECKED, load, snippet_anchor, split_key
from tests.release_fixture import EXPLANATIONS, RELEASES, write_repository


@pytest.fixture
def repository(tmp_path):
    return write_repository(tmp_path)


def test_results_count_only_while_the_snippet_and_its_output_are_unchanged(repository):
    (repository / "snippets/a/01_same.py").write_text('print("changed")\n', encoding="utf-8")
    matrix = load(repository)
    assert [r.result("snippets/a/01_same.py") for r in matrix.releases] == [UNCHECKED] * len(RELEASES)
    assert matrix.checked_on(["snippets/a/01_same.py"]) == []
    assert matrix.checked_on(["snippets/b/01_keras.py"]) == RELEASES
    (repository / "snippets/b/01_keras.out").write_text("1.5\n", encoding="utf-8")
    assert load(repository).checked_on(["snippets/b/01_keras.py"]) == []


def test_releases_keep_the_order_of_releases_yml_and_their_versions(repository):
    matrix = load(repository)
    assert [r.tensorflow for r in matrix.releases] == RELEASES
    assert (matrix.releases[0].keras, matrix.releases[0].python) == ("2.15.0", "3.11")


def test_releases_with_the_same_other_output_share_one_note_and_its_explanation(repository):
    matrix = load(repository)
    [note] = matrix.notes("snippets/a/02_version.py")
    assert (note.kind, note.releases, note.output) == ("different", ["2.15.1", "2.16.2"], "2.x\n")
    assert note.explanations == {"en": ["It prints the release."], "ru": ["Печатает выпуск."]}
    assert matrix.note_for("snippets/a/02_version.py", "2.16.2") == note
    assert matrix.note_for("snippets/a/02_version.py", "2.21.0") is None
    assert matrix.notes("snippets/a/01_same.py") == []


def test_a_complete_differences_file_has_nothing_to_report(repository):
    assert load(repository).unexplained() == []


def test_a_difference_without_an_explanation_names_the_snippet_release_and_file(tmp_path):
    explanations = {"snippets/a/02_version.py": {"2.15.1, 2.16.2": {"en": "It prints the release."}}}
    problems = load(write_repository(tmp_path, explanations=explanations)).unexplained()
    assert any(
        "snippets/b/01_keras.py is failing on TensorFlow 2.15.1" in p and "versions/differences.yml" in p
        for p in problems
    )
    assert any("snippets/a/02_version.py is different on TensorFlow 2.16.2" in p and "in ru" in p for p in problems)


def test_an_explanation_without_a_difference_is_reported(tmp_path):
    explanations = {**EXPLANATIONS, "snippets/a/01_same.py": {"2.16.2": {"en": "Stale.", "ru": "Устарело."}}}
    [problem] = load(write_repository(tmp_path, explanations=explanations)).unexplained()
    assert "snippets/a/01_same.py" in problem and "2.16.2" in problem and "remove" in problem


def test_keys_and_anchors():
    assert split_key("2.16.2, 2.17.1") == ["2.16.2", "2.17.1"]
    assert snippet_anchor("snippets/errors/07_no_gradients_provided.py") == "errors-07-no-gradients-provided"
