"""What a contributor waits for, as `make bench` reports it: medians of BENCH_RUNS runs (default 5) of

1. a warm `make test` (venv, npm packages and the caches of .cache/ already filled: a first run fills them);
2. a cold `.ci/run` on a clean clone of this repository's committed HEAD (set-up included: the venv from uv's
   package cache, `npm ci`, every snippet and notebook executed), as CI runs it;
3. the rebuild after a real edit of one page (its content changed, not only touched): `make build`, and the
   reload of `make serve` (from the edit until the served page has the new text).

Each figure comes with the 1-minute load average before and after its runs (2 cores here: above ~2 another job
shares the machine and the figure is slowed) and PASS or FAIL against its budget. It reports; no test uses a
timing threshold.

Each figure also gives the CPU time its runs took (user + system, every process they started): on a busy machine
the wall clock grows with the load, the CPU time hardly, so it tells a slow machine from slower work.
BENCH_SPEED=warm,cold,build,serve picks the figures (default all four).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.site.siteinfo import ROOT, free_port

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}
IMPORT_SECONDS_FALLBACK = 4.5  # if `import tensorflow` cannot be timed
WARM_BUDGET_IMPORTS = 15  # a warm `make test` costs at most 15 TensorFlow imports of wall-clock time (issue 21)
COLD_BUDGET_SECONDS = 600.0  # a clean clone's `.ci/run`, set-up included (issue 21)
REBUILD_BUDGET_SECONDS = 3.0  # a real page edit rebuilt, by `make build` and by `make serve` (issue 21)
EDITED_PAGE = ROOT / "docs" / "index.md"


@dataclass
class Figure:
    what: str
    runs: list[float]
    budget: float
    load_before: float
    load_after: float
    note: str = ""
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        ordered = sorted(self.runs)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    @property
    def verdict(self) -> str:
        return "PASS" if self.median <= self.budget else "FAIL"

    def line(self) -> str:
        runs = ", ".join(f"{r:.1f}" for r in self.runs)
        return (
            f"{self.what}: median {self.median:.1f} s of {len(self.runs)} [{runs}], budget {self.budget:.1f} s "
            f"{self.verdict}; load average {self.load_before:.1f} before, {self.load_after:.1f} after{self.note}"
            + (f"; CPU {', '.join(f'{c:.1f}' for c in self.cpu)} s" if self.cpu else "")
        )


def load() -> float:
    return os.getloadavg()[0]


def children_cpu() -> float:
    """User + system seconds of every finished child process so far (and of their children)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


CPU: list[float] = []  # the CPU seconds of each timed() call, in order (the figures take theirs from here)


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> float:
    start, cpu = time.perf_counter(), children_cpu()
    proc = subprocess.run(cmd, cwd=cwd, env=env or ENV, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    CPU.append(children_cpu() - cpu)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
        raise SystemExit(f"bench: {' '.join(cmd)} failed in {cwd} (exit {proc.returncode})")
    return seconds


def import_seconds() -> float:
    runs = []
    for _ in range(RUNS):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", "import tensorflow"], env=ENV, cwd=ROOT, capture_output=True)
        if proc.returncode == 0:
            runs.append(time.perf_counter() - start)
    return sorted(runs)[len(runs) // 2] if runs else IMPORT_SECONDS_FALLBACK


def warm_test(one_import: float) -> Figure:
    timed(["make", "--no-print-directory", "test"], ROOT)  # fills the caches, so every timed run is warm
    before = load()
    runs = [timed(["make", "--no-print-directory", "test"], ROOT) for _ in range(RUNS)]
    budget = WARM_BUDGET_IMPORTS * one_import
    note = f" (budget: {WARM_BUDGET_IMPORTS} x import tensorflow = {WARM_BUDGET_IMPORTS} x {one_import:.1f} s)"
    return Figure("warm make test", runs, budget, before, load(), note, CPU[-RUNS:])


def cold_ci_run() -> Figure:
    before = load()
    runs, cpu = [], []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory(prefix="bench-clone-") as tmp:
            clone = Path(tmp) / "repo"
            start = time.perf_counter()
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
            timed(["bash", ".ci/run"], clone, env={k: v for k, v in ENV.items() if k != "VIRTUAL_ENV"})
            runs.append(time.perf_counter() - start)
            cpu.append(CPU[-1])
    return Figure("cold .ci/run on a clean clone (committed HEAD)", runs, COLD_BUDGET_SECONDS, before, load(), cpu=cpu)


def edit(page: Path, original: bytes, n: int) -> str:
    """Change the page's content: a new last paragraph. Returns the text to look for in the built page."""
    marker = f"Bench edit number {n} at {time.time_ns()}."
    page.write_bytes(original + f"\n{marker}\n".encode())
    return marker


def rebuild_after_edit() -> Figure:
    original = EDITED_PAGE.read_bytes()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        site = str(Path(tmp) / "site")
        build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", site]
        timed(build, ROOT)  # a first build: the rebuilds after it are what a contributor gets
        before = load()
        try:
            for n in range(RUNS):
                marker = edit(EDITED_PAGE, original, n)
                runs.append(timed(build, ROOT))
                built = (Path(site) / "index.html").read_text(encoding="utf-8")
                assert marker in built, f"bench: the rebuilt {site}/index.html lacks the edit"
        finally:
            EDITED_PAGE.write_bytes(original)
    return Figure(
        f"make build after editing {EDITED_PAGE.relative_to(ROOT)}",
        runs,
        REBUILD_BUDGET_SECONDS,
        before,
        load(),
        cpu=CPU[-RUNS:],
    )


def served_has(url: str, text: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return text in response.read().decode("utf-8", "replace")
    except OSError:
        return False


def wait_until_served(url: str, text: str, timeout: float = 120.0) -> float:
    start = time.perf_counter()
    while not served_has(url, text):
        if time.perf_counter() - start > timeout:
            raise SystemExit(f"bench: {url} did not show the edit within {timeout:.0f} s")
        time.sleep(0.05)
    return time.perf_counter() - start


def reload_after_edit() -> Figure:
    original = EDITED_PAGE.read_bytes()
    port = free_port()
    url = f"http://127.0.0.1:{port}/custom-gradients-faq/"
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    runs = []
    try:
        wait_until_served(url, "</html>", timeout=300)
        before = load()
        for n in range(RUNS):
            marker = edit(EDITED_PAGE, original, n)
            runs.append(wait_until_served(url, marker))
            time.sleep(1.0)  # let the server settle before the next edit
    finally:
        EDITED_PAGE.write_bytes(original)
        server.terminate()
        server.wait(timeout=30)
    return Figure(
        f"make serve reload after editing {EDITED_PAGE.relative_to(ROOT)}", runs, REBUILD_BUDGET_SECONDS, before, load()
    )


def speed_figures() -> list[Figure]:
    def warm() -> Figure:
        one_import = import_seconds()
        print(f"import tensorflow in a fresh process: median {one_import:.1f} s of {RUNS}", flush=True)
        return warm_test(one_import)

    measures = {
        "warm": warm,
        "cold": cold_ci_run,
        "build": rebuild_after_edit,
        "serve": reload_after_edit,
    }
    chosen = [m.strip() for m in os.environ.get("BENCH_SPEED", ",".join(measures)).split(",") if m.strip()]
    unknown = [m for m in chosen if m not in measures]
    if unknown:
        raise SystemExit(f"bench: BENCH_SPEED={','.join(unknown)}: not one of {', '.join(measures)}")
    figures = []
    for name in chosen:
        figures.append(measures[name]())
        print("  " + figures[-1].line(), flush=True)
    return figures


if __name__ == "__main__":
    speed_figures()
