"""The GitHub workflows (.github/workflows/): tests on every pull request and push with read-only rights,
publishing from main only and after the tests, the weekly link check, the weekly TensorFlow versions matrix
(versions/releases.yml and the newest release), and every action pinned to a commit."""

from __future__ import annotations

import re

import yaml

from tests.harness import ROOT
from tools.versions.releases import load_releases

WORKFLOWS = ROOT / ".github" / "workflows"


def load(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as True
    return data


def runs(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job.get("steps", []))


def test_tests_run_on_every_pull_request_and_push_with_read_only_rights():
    ci = load("ci.yml")
    assert "pull_request" in ci["on"] and "push" in ci["on"], f"ci.yml runs on {list(ci['on'])}"
    assert ci["on"]["push"] is None or "branches" not in ci["on"]["push"], "ci.yml tests pushes to some branches only"
    assert ci["permissions"] == {"contents": "read"}, f"ci.yml's default permissions are {ci['permissions']}"
    test = ci["jobs"]["test"]
    assert "permissions" not in test, "the test job must keep the read-only default"
    assert "make test" in runs(test), "the test job does not run `make test`"
    checkout = next(s for s in test["steps"] if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout.get("with", {}).get("persist-credentials") is False, "the test job keeps the token in .git/config"


def test_tests_run_under_each_supported_python():
    test = load("ci.yml")["jobs"]["test"]
    assert test["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13"]
    assert "${{ matrix.python }}" in test["container"]["image"]
    assert "PYTHON=python${{ matrix.python }}" in runs(test), "make test must be told which Python to use"


def test_publishing_runs_only_on_main_after_the_tests_with_least_privilege():
    publish = load("ci.yml")["jobs"]["publish"]
    assert publish["needs"] == "test", "publishing must wait for the tests"
    assert "refs/heads/main" in publish["if"] and "push" in publish["if"], f"publish runs when {publish['if']}"
    assert publish["permissions"] == {"contents": "write"}, f"publish asks for {publish['permissions']}"
    commands = runs(publish)
    assert "make publish REMOTE=origin" in commands, "publishing must be `make publish`, the maintainer's command"
    assert "extraheader" not in commands and "GITHUB_TOKEN" not in commands, "no hand-made credential plumbing"


def test_caches_hold_downloads_and_executed_notebooks():
    test = load("ci.yml")["jobs"]["test"]
    cache = next(s for s in test["steps"] if s.get("uses", "").startswith("actions/cache@"))
    paths = cache["with"]["path"]
    for path in ("~/.cache/uv", "~/.cache/pip", ".cache/notebooks"):
        assert path in paths, f"the test job does not cache {path}"


def test_link_check_runs_on_a_schedule():
    links = load("linkcheck.yml")
    assert "schedule" in links["on"], "linkcheck.yml has no schedule"
    assert links["permissions"] == {"contents": "read"}
    assert "make linkcheck" in runs(links["jobs"]["linkcheck"])


def test_versions_run_weekly_and_on_demand_with_read_only_rights():
    versions = load("versions.yml")
    assert "schedule" in versions["on"] and "workflow_dispatch" in versions["on"], (
        f"versions.yml runs on {versions['on']}"
    )
    assert versions["permissions"] == {"contents": "read"}, f"versions.yml's permissions are {versions['permissions']}"
    for name, job in versions["jobs"].items():
        assert "permissions" not in job, f"versions.yml: job {name} asks for more than read-only rights"
        checkout = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout@"))
        assert checkout.get("with", {}).get("persist-credentials") is False, f"versions.yml: {name} keeps the token"
        cache = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/cache@"))
        assert "~/.cache/uv" in cache["with"]["path"], f"versions.yml: {name} does not cache uv's downloads"


def test_versions_matrix_is_every_release_of_releases_yml_under_its_python():
    job = load("versions.yml")["jobs"]["release"]
    matrix = job["strategy"]["matrix"]["include"]
    expected = [{"tensorflow": r.tensorflow, "python": r.python} for r in load_releases()]
    assert matrix == expected, (
        f"versions.yml's matrix {matrix} is not versions/releases.yml's releases {expected}: copy them over"
    )
    assert job["strategy"]["fail-fast"] is False, "one release's change must not cancel the others"
    assert "${{ matrix.python }}" in job["container"]["image"], "each release must run under its own Python"
    assert "make versions-check RELEASES=${{ matrix.tensorflow }}" in runs(job)


def test_the_newest_tensorflow_is_checked_against_the_kept_outputs():
    newest = load("versions.yml")["jobs"]["newest"]
    assert "make versions-newest" in runs(newest)


def test_actions_are_pinned_to_a_commit():
    loose = []
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for job in yaml.safe_load(path.read_text())["jobs"].values():
            loose += [
                f"{path.name}: {s['uses']}"
                for s in job.get("steps", [])
                if "uses" in s and not re.search(r"@[0-9a-f]{40}$", s["uses"])
            ]
    assert not loose, f"actions not pinned to a full commit SHA: {loose}"
