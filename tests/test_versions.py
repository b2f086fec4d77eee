"""The committed results of `make versions` (versions/): one per release of versions/releases.yml, each covering
every snippet as it is now (its bytes and its kept output's), the pinned release printing every kept output.
Fast: reads the committed files, installs and runs nothing (tests/versions/ tests the runner itself)."""

from __future__ import annotations

import hashlib
import re

import pytest

from tools.versions import ROOT, SNIPPETS
from tools.versions.releases import LOCKS, RELEASES_FILE, RESULTS, load_releases, pinned_tensorflow
from tools.versions.results import HEADER, load

RELEASES = load_releases()
IDS = [release.tensorflow for release in RELEASES]
CURRENT = sorted(str(p.relative_to(ROOT)) for p in SNIPPETS.rglob("*.py") if "__pycache__" not in p.parts)


def sha256(path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def results(release) -> dict:
    data = load(release.results)
    assert data is not None, (
        f"{release.results.relative_to(ROOT)} is missing: run `make versions RELEASES={release.tensorflow}`"
    )
    return data


def test_releases_run_oldest_first_and_end_with_the_pinned_one():
    listed = [release.tensorflow for release in RELEASES]
    assert listed == sorted(set(listed), key=version), f"{RELEASES_FILE.name}: not oldest first, or a repeat: {listed}"
    pinned = pinned_tensorflow()
    assert listed[-1] == pinned, (
        f"the kept outputs were made with TensorFlow {pinned} (snippets/tensorflow_version.txt), but the last "
        f"release of {RELEASES_FILE.relative_to(ROOT)} is {listed[-1]}: add it there, then `make versions-lock` "
        f"and `make versions RELEASES={pinned}`"
    )
    requirements = (ROOT / "requirements.lock").read_text()
    assert f"tensorflow-cpu=={pinned} " in requirements, f"requirements.lock does not pin tensorflow-cpu=={pinned}"


def test_every_results_file_is_a_listed_release_and_every_release_has_one():
    files = sorted(path.name for path in RESULTS.glob("*.yml"))
    expected = sorted(release.results.name for release in RELEASES)
    assert files == expected, (
        f"versions/results/ holds {files}, versions/releases.yml lists {expected}: delete the results of a release "
        "no longer listed; run `make versions RELEASES=<release>` for a listed one without results"
    )


@pytest.mark.parametrize("release", RELEASES, ids=IDS)
def test_each_release_has_its_hash_pinned_lock(release):
    assert release.lock.parent == LOCKS and release.lock.name == f"tensorflow-{release.tensorflow}.txt"
    assert release.lock.exists(), f"{release.lock.relative_to(ROOT)} is missing: run `make versions-lock`"
    lock = release.lock.read_text()
    assert re.search(rf"^tensorflow-cpu=={re.escape(release.tensorflow)} \\$", lock, re.M), (
        f"{release.lock.relative_to(ROOT)} does not pin tensorflow-cpu=={release.tensorflow}: run `make versions-lock`"
    )
    pins = re.findall(r"^[A-Za-z0-9_.-]+==\S+", lock, re.M)
    unhashed = [pin for pin, block in zip(pins, re.split(r"^[A-Za-z0-9_.-]+==\S+", lock, flags=re.M)[1:])
                if "--hash=sha256:" not in block]  # fmt: skip
    assert pins and not unhashed, f"{release.lock.relative_to(ROOT)}: pins without a hash: {unhashed}"


@pytest.mark.parametrize("release", RELEASES, ids=IDS)
def test_results_were_generated_for_their_release(release):
    data = results(release)
    text = release.results.read_text()
    assert text.startswith(HEADER.splitlines()[0]), (
        f"{release.results.relative_to(ROOT)} does not start with the generator's header: it is generated, "
        f"never typed; run `make versions RELEASES={release.tensorflow}`"
    )
    assert data["tensorflow"] == release.tensorflow, f"{release.results.name} was measured on {data['tensorflow']}"
    assert data["python"].startswith(release.python + "."), (
        f"{release.results.name} was measured under Python {data['python']}, releases.yml says {release.python}"
    )
    assert data["keras"] and data["platform"], f"{release.results.name} lacks the Keras version or the platform"


@pytest.mark.parametrize("release", RELEASES, ids=IDS)
def test_results_cover_every_snippet_as_it_is_now(release):
    recorded = results(release).get("snippets") or {}
    problems = []
    for path in CURRENT:
        snippet = ROOT / path
        entry = recorded.get(path)
        if entry is None:
            problems.append(f"{path}: no result")
        elif entry.get("snippet_sha256") != sha256(snippet):
            problems.append(f"{path}: the snippet changed since its result was recorded")
        elif entry.get("kept_output_sha256") != sha256(snippet.with_suffix(".out")):
            problems.append(f"{path}: its kept output changed since its result was recorded")
    gone = sorted(set(recorded) - set(CURRENT))
    problems += [f"{path}: a result for a snippet that no longer exists" for path in gone]
    stale = [line.split(":")[0] for line in problems]
    assert not problems, (
        f"{release.results.relative_to(ROOT)} is out of date:\n  "
        + "\n  ".join(problems)
        + "\nUpdate these entries in every release's results (a few minutes per release):\n  "
        + "\n  ".join(f"make versions ONLY={path}" for path in stale)
        + f"\nor all at once: make versions ONLY='{' '.join(stale)}'"
    )


@pytest.mark.parametrize("release", RELEASES, ids=IDS)
def test_output_is_kept_exactly_for_different_and_failing_snippets(release):
    wrong = []
    for path, entry in (results(release).get("snippets") or {}).items():
        if entry.get("result") not in ("identical", "different", "failing"):
            wrong.append(f"{path}: result {entry.get('result')!r}")
        elif ("output" in entry) != (entry["result"] != "identical"):
            wrong.append(f"{path}: {entry['result']} {'with' if 'output' in entry else 'without'} an output")
    assert not wrong, (
        f"{release.results.relative_to(ROOT)} is generated, yet {len(wrong)} entries are malformed "
        f"(rerun `make versions RELEASES={release.tensorflow}`): " + "; ".join(wrong[:10])
    )


def test_the_pinned_release_prints_every_kept_output():
    pinned = next(release for release in RELEASES if release.tensorflow == pinned_tensorflow())
    recorded = results(pinned).get("snippets") or {}
    not_identical = {path: entry["result"] for path, entry in recorded.items() if entry["result"] != "identical"}
    assert not not_identical, (
        f"under the pinned TensorFlow {pinned.tensorflow}, copied alone into an empty folder, these snippets do not "
        f"print their kept output: {not_identical}. See their `output` in {pinned.results.relative_to(ROOT)}; a "
        "snippet must run alone with only TensorFlow (fix it, `make outputs ONLY=<it>`, then `make versions ONLY=<it>`)"
    )


def test_a_second_run_in_the_same_checkout_stops_before_touching_the_environments():
    """Two `make versions` in one checkout deleted each other's release environments (each run deletes
    .cache/versions/<release> when it starts and ends), and the snippets running there were recorded as failing:
    the second run must stop at once, naming the way out."""
    import subprocess
    import sys

    from filelock import FileLock

    from tools.versions import ENVIRONMENTS

    ENVIRONMENTS.mkdir(parents=True, exist_ok=True)
    with FileLock(str(ENVIRONMENTS / "run.lock"), timeout=0):
        proc = subprocess.run(
            [sys.executable, "-m", "tools.versions", "--releases", pinned_tensorflow(), "snippets/landing"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode != 0 and "another `make versions` is running in this checkout" in proc.stderr, (
        f"tools/versions/__main__.py (only_run_here) let a second run start: exit {proc.returncode}\n{proc.stdout[-800:]}"
        f"\n{proc.stderr[-800:]}"
    )
    assert "TensorFlow" not in proc.stdout, "the second run began a release before stopping"
