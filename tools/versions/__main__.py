"""`make versions`: run every snippet alone under each release of versions/releases.yml and record the results.

python -m tools.versions                                  # every release, every snippet: rewrite all results
python -m tools.versions snippets/errors                  # those snippets only (a chapter or files), in every
                                                          # release's results; entries of deleted snippets go
python -m tools.versions --releases 2.15.1,2.21.0 ...     # those releases only
python -m tools.versions --check --releases 2.16.2        # write nothing; exit 1 with a diff per snippet whose
                                                          # result differs from the committed one
python -m tools.versions --newest                         # the newest tensorflow-cpu on PyPI (no committed
                                                          # lock): exit 1 with a diff per snippet whose output
                                                          # differs from the kept one
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

from filelock import FileLock, Timeout

from tools.versions import ENVIRONMENTS, ROOT, SNIPPETS
from tools.versions.alone import check
from tools.versions.compare import change
from tools.versions.environment import environment
from tools.versions.interpreters import find_python, interpreter_for
from tools.versions.lock import compile_lock
from tools.versions.releases import Release, load_releases, results_path, select
from tools.versions.results import dump, load, merge

NEWEST_PYTHONS = ("3.14", "3.13", "3.12", "3.11")  # the newest one that runs here and has the release's wheels
NEWEST_RESULTS = ENVIRONMENTS / "newest"  # the newest release's results, for reading (CI uploads them)


def rel(path: Path) -> str:
    return str(path.resolve().relative_to(ROOT))


def all_snippets() -> list[str]:
    return sorted(rel(p) for p in SNIPPETS.rglob("*.py") if "__pycache__" not in p.parts)


def chosen_snippets(args: list[str]) -> list[str]:
    """Snippet paths (relative to the repository) named by ONLY: files (.py or their .out) or folders. A named
    file that no longer exists is kept: its entries are dropped from the results."""
    if not args:
        return all_snippets()
    chosen: set[str] = set()
    for arg in args:
        path = (ROOT / arg).resolve()
        if not path.is_relative_to(SNIPPETS):
            raise SystemExit(f"ONLY={arg}: not under snippets/ (name snippet files or chapter folders)")
        if path.is_dir():
            chosen |= {rel(p) for p in path.rglob("*.py") if "__pycache__" not in p.parts}
        else:
            chosen.add(rel(path.with_suffix(".py")))
    return sorted(chosen)


def run_all(python: Path, snippets: list[str], jobs: int, label: str) -> dict[str, dict]:
    """Every existing snippet of `snippets` run alone under `python`, `jobs` at a time, with progress lines."""
    existing = [path for path in snippets if (ROOT / path).exists()]
    entries: dict[str, dict] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        started = {
            pool.submit(check, python, ROOT / path, (ROOT / path).with_suffix(".out")): path for path in existing
        }
        for done, future in enumerate(concurrent.futures.as_completed(started), 1):
            path = started[future]
            entries[path] = future.result()
            print(f"  {label} [{done:>3}/{len(existing)}] {entries[path]['result']:<9} {path}", flush=True)
    return dict(sorted(entries.items()))


def counts(entries: dict[str, dict]) -> str:
    results = [entry["result"] for entry in entries.values()]
    return ", ".join(f"{results.count(kind)} {kind}" for kind in ("identical", "different", "failing"))


def kept_output(path: str) -> str:
    out = (ROOT / path).with_suffix(".out")
    return out.read_text(encoding="utf-8") if out.exists() else ""


def run_release(release: Release, snippets: list[str], jobs: int, check_only: bool, keep: bool) -> tuple[str, list]:
    """One release: environment, every snippet, then its results written (or, with check_only, compared)."""
    start = time.monotonic()
    python = interpreter_for(release.python, release.tensorflow)
    print(f"TensorFlow {release.tensorflow}: Python {release.python} ({python}), {rel(release.lock)}", flush=True)
    with environment(f"tensorflow-{release.tensorflow}", python, release.lock, keep) as env:
        if env.tensorflow != release.tensorflow:
            raise SystemExit(f"{rel(release.lock)} installed TensorFlow {env.tensorflow}, not {release.tensorflow}")
        made = time.monotonic() - start
        entries = run_all(env.python, snippets, jobs, release.tensorflow)
        if not env.python.exists():  # deleted under the run (another `make versions`, `make clean`): all "failing"
            raise SystemExit(f"{rel(env.root)} vanished during the run; nothing written. Run it again, alone.")
    facts = {"tensorflow": env.tensorflow, "keras": env.keras, "python": env.python_version, "platform": env.platform}
    reports = []
    committed = load(release.results)
    if check_only:
        before = (committed or {}).get("snippets") or {}
        for path, entry in entries.items():
            if path not in before:
                reports.append(f"{path}: no committed result (run `make versions ONLY={path}`)\n")
                continue
            report = change(path, before[path], entry, kept_output(path), "committed", "this run")
            if report:
                reports.append(report)
    else:
        data = merge(None if snippets == all_snippets() else committed, facts, entries, lambda p: (ROOT / p).exists())
        release.results.parent.mkdir(parents=True, exist_ok=True)
        release.results.write_text(dump(data, rel(release.lock)), encoding="utf-8")
    took = time.monotonic() - start
    load1, load5, load15 = os.getloadavg()
    summary = (
        f"TensorFlow {release.tensorflow} (Keras {env.keras}, Python {env.python_version}): {counts(entries)}"
        f" in {took / 60:.1f} min (environment {made:.0f} s; load average {load1:.1f} {load5:.1f} {load15:.1f})"
    )
    print(summary + ("" if check_only else f"; written {rel(release.results)}"), flush=True)
    return summary, reports


def newest(snippets: list[str], jobs: int, keep: bool) -> tuple[str, list]:
    """The newest tensorflow-cpu on PyPI, under the newest Python here that it has wheels for."""
    start = time.monotonic()
    lock = ENVIRONMENTS / "newest.txt"
    for minor in NEWEST_PYTHONS:
        python = find_python(minor)
        if python is None:
            continue
        try:
            compile_lock("tensorflow-cpu", minor, lock, command="make versions-newest")
            break
        except subprocess.CalledProcessError:
            print(f"(no tensorflow-cpu resolves for Python {minor}; trying an older Python)", flush=True)
    else:
        raise SystemExit(f"no Python of {', '.join(NEWEST_PYTHONS)} runs here with a tensorflow-cpu release")
    print(f"Newest TensorFlow on PyPI: Python {minor} ({python}), resolved into {rel(lock)}", flush=True)
    with environment("tensorflow-newest", python, lock, keep) as env:
        entries = run_all(env.python, snippets, jobs, env.tensorflow)
    label = f"TensorFlow {env.tensorflow}, Keras {env.keras}"
    reports = [r for p, e in entries.items() if (r := change(p, None, e, kept_output(p), "kept output", label))]
    data = merge(None, {"tensorflow": env.tensorflow, "keras": env.keras, "python": env.python_version,
                        "platform": env.platform}, entries, lambda p: True)  # fmt: skip
    results = results_path(env.tensorflow, NEWEST_RESULTS)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(dump(data, rel(lock)), encoding="utf-8")
    took = time.monotonic() - start
    summary = f"{label} (Python {env.python_version}): {counts(entries)} in {took / 60:.1f} min; {rel(results)}"
    print(summary, flush=True)
    return summary, reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", help="snippet files or chapter folders (default: every snippet)")
    parser.add_argument("--releases", help="comma-separated releases, e.g. 2.15.1,2.21.0 (default: all)")
    parser.add_argument("--check", action="store_true", help="compare with the committed results; write nothing")
    parser.add_argument("--newest", action="store_true", help="the newest tensorflow-cpu on PyPI, against kept outputs")
    parser.add_argument("--jobs", type=int, default=2, help="snippets run at a time (default 2)")
    parser.add_argument("--keep-environments", action="store_true", help="keep .cache/versions/<release> (debugging)")
    args = parser.parse_args(argv)

    snippets = chosen_snippets(args.paths)
    with only_run_here():
        return run(args, snippets)


@contextlib.contextmanager
def only_run_here():
    """One run at a time per checkout: each release's environment (.cache/versions/<release>) is deleted when a run
    starts and when it ends, so a second run would delete the first one's environment under its snippets, and
    they would be recorded as "failing". Another worktree has its own .cache/ and can run at the same time."""
    ENVIRONMENTS.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(ENVIRONMENTS / "run.lock"), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise SystemExit(
            f"another `make versions` is running in this checkout ({rel(ENVIRONMENTS)}): wait for it, or run this one "
            "in another git worktree (its own .cache/versions/)"
        ) from None
    try:
        yield
    finally:
        lock.release()


def run(args, snippets: list[str]) -> int:
    start = time.monotonic()
    if args.newest:
        outcomes = [newest(snippets, args.jobs, args.keep_environments)]
    else:
        releases = select(load_releases(), args.releases)
        outcomes = [run_release(r, snippets, args.jobs, args.check, args.keep_environments) for r in releases]
    print(f"\n{len(snippets)} snippets, {len(outcomes)} releases, {(time.monotonic() - start) / 60:.1f} min:")
    for summary, _ in outcomes:
        print(f"  {summary}")
    reports = [report for _, found in outcomes for report in found]
    if reports:
        print(f"\n{len(reports)} snippets changed:\n", file=sys.stderr)
        print("\n".join(reports), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
