"""One snippet as a reader who copied it runs it: the file alone in an empty folder, `python <file>` there in
a process of its own, with only the environment's packages; its stdout compared byte for byte with the kept
output. The result is `identical`, `different` (that release's stdout is kept) or `failing` (its stdout, then
the exit code and the end of stderr, without TensorFlow's log lines, temporary paths or memory addresses)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

TIMEOUT_SECONDS = 600
STDERR_LINES = 30

# What the tests' harness sets for every snippet (tests/harness.py SNIPPET_ENV): quiet logs, CPU, fixed hashes.
# And Python's prints written as they happen, as in a reader's terminal (and the harness's line-buffered stdout):
# into a pipe Python would hold them back while TensorFlow's C++ side (tf.print inside a tf.function) writes
# at once, and the lines would come out in another order than the reader sees.
SNIPPET_ENV = {
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "CUDA_VISIBLE_DEVICES": "-1",
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
}
PASSED_ON = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")  # nothing else of ours (no PYTHONPATH, no VIRTUAL_ENV)

# TensorFlow's and absl's C++ log lines, and notices printed before logging is set up: noise, not the error.
LOG_NOISE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IWEF] "  # 2026-12-01 10:00:00.000000: W tensorflow/...
    r"|[IWEF]\d{4} [\d:.]+ +\d+ \S+:\d+\] "  # W0000 00:00:1764583200.1 1234 file.cc:12] ...
    r"|WARNING: All log messages before absl::InitializeLog\(\) is called"
    r"|To enable the following instructions: .*rebuild TensorFlow with the appropriate compiler flags)"
)


# Memory addresses in an error message (`<object at 0x7f3a5c1d2e80>`) change from run to run.
ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")


@dataclass(frozen=True)
class Run:
    stdout: str
    stderr: str
    returncode: int | None  # None: killed after the timeout


def sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def run_alone(python: Path | str, snippet: Path, timeout: float = TIMEOUT_SECONDS) -> Run:
    """`python <snippet's name>` in an empty temporary folder holding only a copy of the snippet."""
    env = {key: os.environ[key] for key in PASSED_ON if key in os.environ} | SNIPPET_ENV
    with tempfile.TemporaryDirectory(prefix="snippet-") as folder:
        shutil.copyfile(snippet, Path(folder, snippet.name))
        try:
            done = subprocess.run(
                [str(python), snippet.name], cwd=folder, env=env, capture_output=True, timeout=timeout
            )
            stdout, stderr, code = done.stdout, done.stderr, done.returncode
        except subprocess.TimeoutExpired as exc:
            stdout, stderr, code = exc.stdout or b"", exc.stderr or b"", None
        text = lambda data: data.decode("utf-8", errors="replace")  # noqa: E731
        # Paths that change from run to run (the temporary folder, the environment) would make every
        # rerun look like a change: shown as the reader's own folder, "./", and "<venv>/".
        stderr_text = text(stderr).replace(str(Path(folder).resolve()) + "/", "./").replace(folder + "/", "./")
        venv = Path(python).parent.parent
        stderr_text = stderr_text.replace(str(venv) + "/", "<venv>/")
        return Run(text(stdout), stderr_text, code)


def error_report(run: Run, timeout: float = TIMEOUT_SECONDS) -> str:
    """A failing run's record: its stdout, then how it ended and the last lines of stderr (log noise left out)."""
    lines = [ADDRESS.sub("0x…", line) for line in run.stderr.splitlines() if not LOG_NOISE.match(line)]
    tail = lines[-STDERR_LINES:]
    how = f"killed after {timeout:g} s" if run.returncode is None else f"exit code {run.returncode}"
    shown = f"last {len(tail)} lines of stderr" if len(lines) > len(tail) else "stderr"
    report = run.stdout
    if report and not report.endswith("\n"):
        report += "\n"
    report += f"--- {how}; {shown}, TensorFlow's log lines left out ---\n"
    return report + "".join(line + "\n" for line in tail)


def check(python: Path | str, snippet: Path, kept: Path, timeout: float = TIMEOUT_SECONDS) -> dict:
    """Run `snippet` alone under `python` and record the result against `kept` (its .out)."""
    run = run_alone(python, snippet, timeout)
    expected = kept.read_text(encoding="utf-8") if kept.exists() else None
    entry = {"result": "identical", "snippet_sha256": sha256(snippet), "kept_output_sha256": sha256(kept)}
    if run.returncode != 0:
        entry |= {"result": "failing", "output": error_report(run, timeout)}
    elif run.stdout != expected:
        entry |= {"result": "different", "output": run.stdout}
    return entry
