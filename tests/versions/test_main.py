"""tools/versions/__main__.py end to end on a fake repository (tiny snippets in a temporary folder) and a fake
release (the Python running the tests, standing in for a TensorFlow environment): `make versions` writes every
entry, `ONLY=` rewrites only its own and drops deleted snippets, `--check` and `--newest`-style comparison fail
with a diff. Nothing is installed."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pytest
import yaml

import tools.versions.__main__ as versions
import tools.versions.releases as releases
from tools.versions.environment import Environment
from tools.versions.releases import Release


@pytest.fixture
def repository(tmp_path, monkeypatch):
    """A repository with two chapters of tiny snippets, one fake release, and its results folder."""
    snippets = tmp_path / "snippets"
    for path, code, kept in [
        ("a/01_same.py", 'print("same")\n', "same\n"),
        ("a/02_changes.py", 'print("new")\n', "old\n"),
        ("b/01_fails.py", "raise KeyError(\"Registering two gradient with name 'Name'\")\n", ""),
    ]:
        (snippets / path).parent.mkdir(parents=True, exist_ok=True)
        (snippets / path).write_text(code)
        (snippets / path).with_suffix(".out").write_text(kept)
    monkeypatch.setattr(versions, "ROOT", tmp_path)
    monkeypatch.setattr(versions, "SNIPPETS", snippets)
    monkeypatch.setattr(releases, "RESULTS", tmp_path / "versions" / "results")
    release = Release("9.9.9", "3.x", tmp_path / "versions" / "locks" / "tensorflow-9.9.9.txt")
    monkeypatch.setattr(versions, "load_releases", lambda: [release])
    monkeypatch.setattr(versions, "interpreter_for", lambda minor, tensorflow: sys.executable)

    @contextlib.contextmanager
    def fake_environment(name, interpreter, lock, keep=False):
        yield Environment(Path(sys.executable), tmp_path, "9.9.9", "9.0.0", "3.99.0", "Linux x86_64")

    monkeypatch.setattr(versions, "environment", fake_environment)
    return tmp_path, release


def recorded(release) -> dict:
    return yaml.safe_load(release.results.read_text())


def test_a_full_run_records_every_snippet(repository, capsys):
    root, release = repository
    assert versions.main([]) == 0
    data = recorded(release)
    assert {k: data[k] for k in ("tensorflow", "keras", "python", "platform")} == {
        "tensorflow": "9.9.9", "keras": "9.0.0", "python": "3.99.0", "platform": "Linux x86_64"
    }  # fmt: skip
    results = {path: entry["result"] for path, entry in data["snippets"].items()}
    assert results == {
        "snippets/a/01_same.py": "identical",
        "snippets/a/02_changes.py": "different",
        "snippets/b/01_fails.py": "failing",
    }
    assert data["snippets"]["snippets/a/02_changes.py"]["output"] == "new\n"
    assert "KeyError" in data["snippets"]["snippets/b/01_fails.py"]["output"]
    assert "1 identical, 1 different, 1 failing" in capsys.readouterr().out


def test_only_rewrites_its_own_entries_and_drops_deleted_snippets(repository):
    root, release = repository
    versions.main([])
    before = recorded(release)["snippets"]
    (root / "snippets/a/02_changes.py").write_text('print("old")\n')
    (root / "snippets/b/01_fails.py").unlink()
    assert versions.main(["snippets/a/02_changes.out"]) == 0  # a .out names its snippet too
    after = recorded(release)["snippets"]
    assert set(after) == {"snippets/a/01_same.py", "snippets/a/02_changes.py"}
    assert after["snippets/a/01_same.py"] == before["snippets/a/01_same.py"]
    assert after["snippets/a/02_changes.py"]["result"] == "identical"
    assert "output" not in after["snippets/a/02_changes.py"]


def test_only_takes_a_chapter_folder(repository):
    root, release = repository
    assert versions.main(["snippets/b"]) == 0
    assert list(recorded(release)["snippets"]) == ["snippets/b/01_fails.py"]


def test_only_outside_snippets_is_refused(repository):
    with pytest.raises(SystemExit, match="not under snippets/"):
        versions.main(["tests/harness.py"])


def test_check_writes_nothing_and_fails_with_a_diff_when_a_result_changed(repository, capsys):
    root, release = repository
    versions.main([])
    written = release.results.read_text()
    assert versions.main(["--check"]) == 0
    (root / "snippets/a/01_same.py").write_text('print("changed")\n')
    capsys.readouterr()
    assert versions.main(["--check"]) == 1
    assert release.results.read_text() == written
    err = capsys.readouterr().err
    assert "snippets/a/01_same.py: identical -> different" in err
    assert "-same\n+changed\n" in err


def test_unknown_release_is_named(repository):
    with pytest.raises(SystemExit, match="not in versions/releases.yml: 2.99"):
        versions.main(["--releases", "2.99"])


def test_newest_fails_with_a_diff_per_snippet_whose_output_changed(repository, monkeypatch, capsys):
    root, release = repository
    resolved = []
    monkeypatch.setattr(versions, "ENVIRONMENTS", root / ".cache" / "versions")
    monkeypatch.setattr(versions, "NEWEST_RESULTS", root / ".cache" / "versions" / "newest")
    monkeypatch.setattr(versions, "find_python", lambda minor: sys.executable if minor == "3.13" else None)
    monkeypatch.setattr(
        versions, "compile_lock", lambda requirement, minor, *a, **k: resolved.append((requirement, minor))
    )
    assert versions.main(["--newest"]) == 1
    assert resolved == [("tensorflow-cpu", "3.13")], "the newest release, unpinned, under the newest Python here"
    err = capsys.readouterr().err
    assert "snippets/a/02_changes.py: identical -> different" in err and "-old\n+new\n" in err
    assert "snippets/b/01_fails.py: identical -> failing" in err and "KeyError" in err
    assert "snippets/a/01_same.py" not in err
    assert (root / ".cache/versions/newest/tensorflow-9.9.9.yml").exists(), "its results are kept for reading"
    assert not release.results.exists(), "the committed results are not touched"
