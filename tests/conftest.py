"""Shared fixtures: the strict build of the whole site, made once per test session (once for all the workers of
`make test`, which runs pytest-xdist with `-n 2 --dist loadgroup`), and the grouping that keeps each expensive
shared fixture on one worker."""

import json
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


def _strict_build(site_dir: Path) -> Build:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return Build(site_dir, proc.returncode, proc.stdout + proc.stderr)


def _xdist_worker() -> str | None:
    """The pytest-xdist worker this process is ("gw0", "gw1"), or None when pytest runs alone."""
    return os.environ.get("PYTEST_XDIST_WORKER")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Build:
    """`mkdocs build --strict` into a temporary folder, exactly as `make build` runs it, once per test session.

    Under pytest-xdist each worker is a process of its own, but the build is still made once: the workers of one
    session share pytest's temporary folder of that session (the parent of each worker's own), so the first
    worker to get there builds under a file lock and writes the result beside the site; the other waits on the
    lock and reads it. A new session has a new folder, so nothing is reused from an earlier run (or from another
    `make test` running at the same time)."""
    if _xdist_worker() is None:
        return _strict_build(tmp_path_factory.mktemp("site"))
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent  # this session's folder, the same for every worker
    site_dir, result = shared / "built-site", shared / "built-site.json"
    with FileLock(str(shared / "built-site.lock")):
        if result.is_file():
            kept = json.loads(result.read_text(encoding="utf-8"))
            return Build(site_dir, kept["returncode"], kept["log"])
        build = _strict_build(site_dir)
        result.write_text(json.dumps({"returncode": build.returncode, "log": build.log}), encoding="utf-8")
        return build


def _snippet_param(item) -> Path | None:
    return item.callspec.params.get("snippet") if hasattr(item, "callspec") else None


# xdist groups (`--dist loadgroup` runs each group on one worker): tests that share an expensive fixture run where
# it was set up. "visits": every test reading the session's one visit of each page (tests/site/conftest.py);
# "snippets": the parametrized snippet runs, so one worker prefetches them all; a module with a module-scoped
# fixture (the axe runs, the search tabs, the publish, the spelling dictionary...) stays on one worker.
# Under xdist the browser groups go first: the axe runs are the longest tests (one group per colour scheme), and
# whatever is queued behind a group waits for it, so the long ones start at once, on different workers.
_FIRST = ("axe-light", "axe-dark", "visits")


def _group(item) -> str | None:
    fixtures = getattr(item, "fixturenames", ())
    if item.nodeid.startswith("tests/site/test_accessibility.py::"):  # one group per scheme: half the axe runs each
        return f"axe-{item.callspec.params['scheme']}"
    if "visits" in fixtures:
        return "visits"
    if _snippet_param(item) is not None:
        return "snippets"
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    if any(d.scope == "module" for name in fixtures for d in defs.get(name, ())):
        return item.nodeid.split("::", 1)[0]
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook appends "@<group>" to each grouped test's id
def pytest_collection_modifyitems(config, items):
    if _xdist_worker() is None:
        return
    groups = {}
    for item in items:
        group = groups[item.nodeid] = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    rank = {group: i for i, group in enumerate(_FIRST)}
    items.sort(key=lambda item: rank.get(groups[item.nodeid], len(rank)))  # stable: the rest keep their order


def pytest_collection_finish(session):
    """Start the selected snippets in the background, two at a time, while the other tests run. Under xdist a
    worker starts them when it gets the "snippets" group (its first snippet test), so they run once."""
    snippets = [path for item in session.items if (path := _snippet_param(item)) is not None]
    if not snippets:
        return
    if _xdist_worker() is None:
        harness.prefetch(snippets, jobs=2)
    else:
        session.config.stash[_SNIPPETS_TO_PREFETCH] = snippets


_SNIPPETS_TO_PREFETCH = pytest.StashKey[list]()


def pytest_runtest_setup(item):
    if _snippet_param(item) is not None:
        snippets = item.config.stash.get(_SNIPPETS_TO_PREFETCH, None)
        if snippets:
            item.config.stash[_SNIPPETS_TO_PREFETCH] = []
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
