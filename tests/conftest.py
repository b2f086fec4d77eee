"""Shared fixtures: the strict build of the whole site, made once per test session."""

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import harness

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Build:
    site_dir: Path
    returncode: int
    log: str


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Build:
    """`mkdocs build --strict` into a temporary folder, exactly as `make build` runs it."""
    site_dir = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return Build(site_dir, proc.returncode, proc.stdout + proc.stderr)


def pytest_collection_finish(session):
    """Start the selected snippets in the background, two at a time, while the other tests run."""
    snippets = [
        item.callspec.params["snippet"]
        for item in session.items
        if hasattr(item, "callspec") and "snippet" in item.callspec.params
    ]
    if snippets:
        harness.prefetch(snippets, jobs=2)


def pytest_sessionfinish(session):
    harness.cancel_prefetch()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed `assert condition, "message"` reports the message and where, not a screen of test source
    (the messages name the file, the line and the fix). An assert without a message keeps pytest's report."""
    outcome = yield
    report = outcome.get_result()
    excinfo = call.excinfo
    if not (report.failed and excinfo and excinfo.errisinstance(AssertionError)):
        return
    # pytest indents the message's continuation lines by two spaces: undo that
    message = str(excinfo.value).split("\nassert ")[0].strip().replace("\n  ", "\n")
    if not message or message.startswith("assert "):
        return
    entry = next((e for e in reversed(excinfo.traceback) if Path(str(e.path)).is_relative_to(ROOT / "tests")), None)
    where = f"{Path(str(entry.path)).relative_to(ROOT)}:{entry.lineno + 1}: " if entry else ""
    report.longrepr = f"{where}{message}"
