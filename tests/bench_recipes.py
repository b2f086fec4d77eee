"""`make bench` (BENCH_ONLY=recipes): how long each cookbook snippet takes as a reader runs it, against issue 23's
budget of RECIPE_BUDGET_SECONDS on this 2-core machine.

Each snippet under snippets/cookbook/ is copied alone into an empty folder and run there with the project's
Python (`python x.py`, a fresh process: TensorFlow's import included, as the reader waits for it), BENCH_RECIPE_RUNS
times (default 3). A line per snippet gives the median wall-clock time, the runs, the 1-minute load average before
and after (2 cores: above ~2 something else shares the machine and the figure is slowed) and PASS or FAIL.
BENCH_RECIPES=<glob> picks the snippets (default `*.py`). It reports; no test uses a timing threshold.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.site.siteinfo import ROOT

RECIPES = ROOT / "snippets" / "cookbook"
RECIPE_BUDGET_SECONDS = 15.0  # "Each recipe snippet runs in at most 15 s on this 2-core machine" (issue 23)
RUNS = int(os.environ.get("BENCH_RECIPE_RUNS", "3"))
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def run_alone(snippet: Path) -> float:
    """Seconds of wall clock for `python <snippet>` in an empty folder; exits the bench if the snippet fails."""
    with tempfile.TemporaryDirectory(prefix="bench-recipe-") as tmp:
        copy = Path(tmp) / snippet.name
        shutil.copyfile(snippet, copy)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, copy.name], cwd=tmp, env=ENV, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    if proc.returncode != 0:
        print(proc.stderr[-3000:])
        raise SystemExit(f"bench: {snippet.relative_to(ROOT)} exited with {proc.returncode} when run alone")
    return seconds


def recipe_times() -> list[tuple[str, float, list[float], float, float]]:
    pattern = os.environ.get("BENCH_RECIPES", "*.py")
    snippets = sorted(RECIPES.glob(pattern))
    print(
        f"\nCookbook snippets, each alone in an empty folder (median of {RUNS}, budget {RECIPE_BUDGET_SECONDS:.0f} s):",
        flush=True,
    )
    rows = []
    for snippet in snippets:
        before = os.getloadavg()[0]
        runs = [run_alone(snippet) for _ in range(RUNS)]
        row = (snippet.name, median(runs), runs, before, os.getloadavg()[0])
        verdict = "PASS" if row[1] <= RECIPE_BUDGET_SECONDS else "FAIL"
        print(
            f"  {row[0]:44} median {row[1]:5.1f} s [{', '.join(f'{r:.1f}' for r in runs)}] {verdict}; "
            f"load average {row[3]:.1f} before, {row[4]:.1f} after",
            flush=True,
        )
        rows.append(row)
    slowest = max(rows, key=lambda r: r[1], default=None)
    if slowest:
        failing = sum(r[1] > RECIPE_BUDGET_SECONDS for r in rows)
        print(f"  {len(rows)} snippets, {failing} over budget; slowest {slowest[0]} at {slowest[1]:.1f} s", flush=True)
    return rows


if __name__ == "__main__":
    recipe_times()
