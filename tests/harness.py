"""Run snippets the way a reader would, and keep their real output beside them.

Every snippet is ``snippets/<chapter>/<nn>_<what>.py``; its kept stdout is the same path with ``.out``.
Each snippet runs in a process of its own (``tf.RegisterGradient`` writes a process-wide registry), but
TensorFlow is imported only once: a fork server imports it, then forks a fresh child per snippet.

A snippet's result (stdout, stderr, exit 0) is kept in ``.cache/snippets/``, keyed on the snippet's bytes, the
locked environment (requirements.lock), Python and ``RUNNER``: a warm test run re-runs only the snippets whose
key changed (a TensorFlow upgrade changes every key). ``SNIPPET_CACHE=0`` runs every snippet; ``make outputs``
always runs them.

Command line (what ``make outputs`` runs)::

    python -m tests.harness --update                      # every snippet
    python -m tests.harness --update snippets/second_order  # one chapter (or one file)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import platform
import sys
import tempfile
import threading
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
VERSION_FILE = SNIPPETS / "tensorflow_version.txt"
TIMEOUT_SECONDS = 600
RESULT_CACHE = ROOT / ".cache" / "snippets"
RUNNER = "1"  # bump when a change here changes what a snippet prints: every kept result is then stale
use_result_cache = os.environ.get("SNIPPET_CACHE", "1") != "0"

# Determinism and quiet logs, for the fork server and so for every snippet it forks.
SNIPPET_ENV = {
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "CUDA_VISIBLE_DEVICES": "-1",
    "PYTHONHASHSEED": "0",
}


@dataclass(frozen=True)
class Result:
    path: Path
    stdout: str
    stderr: str
    returncode: int

    @property
    def rel(self) -> str:
        return relative(self.path)


def relative(path: Path) -> str:
    return str(Path(path).resolve().relative_to(ROOT))


def output_path(snippet: Path) -> Path:
    return Path(snippet).with_suffix(".out")


def all_snippets() -> list[Path]:
    return sorted(p for p in SNIPPETS.rglob("*.py") if "__pycache__" not in p.parts)


def regenerate_command(snippet: Path | str) -> str:
    return f"make outputs ONLY={relative(Path(snippet))}"


def _run_in_child(path: str, stdout_file: str, stderr_file: str) -> None:
    """Runs in a freshly forked child: the snippet as ``python <path>`` would run it."""
    import runpy

    out = os.open(stdout_file, os.O_WRONLY)
    err = os.open(stderr_file, os.O_WRONLY)
    os.dup2(out, 1)
    os.dup2(err, 2)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    os.chdir(ROOT)
    sys.argv = [path]
    sys.path.insert(0, str(Path(path).parent))
    code = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - report any crash the way python would
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _exit_with(code: int) -> None:
    """A child that does nothing but exit with ``code`` (what tests/test_harness.py launches by the hundred)."""
    os._exit(code)


_context = None


def _fork_context():
    """A fork server that has imported TensorFlow (and run nothing), started once per process."""
    global _context
    if _context is None:
        os.environ.update(SNIPPET_ENV)
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(["tensorflow"])
        _start_quietly()
    return _context


def _start_quietly() -> None:
    """Start the fork server with stderr sent to /dev/null, so TensorFlow's start-up notices stay out of the
    test log (each snippet's own stderr is still captured and shown when it fails)."""
    from multiprocessing import forkserver

    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        forkserver.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


# Why a lock. multiprocessing's Popen.poll() is not thread-safe, and Process.start() polls every child this
# process still has (multiprocessing.process._cleanup). The fork server sends each child's exit status once,
# through that child's sentinel pipe, then closes it. So when one thread starts a snippet while another
# thread's snippet has just exited, both threads can find the sentinel readable: one reads the status, the
# other reads EOF, and popen_forkserver.Popen.poll() turns that EOF into exit code 255 ("the fork server
# died"), even though the snippet printed everything and exited 0. Under load the window is wide enough to
# hit (tests/test_harness.py reproduces it). Starting and reaping children under one lock means exactly one
# thread reads each status; the waiting itself happens outside the lock, so snippets still run in parallel.
_children_lock = threading.Lock()


def launch(target, args: tuple, timeout: float = TIMEOUT_SECONDS) -> tuple[int, bool]:
    """Run ``target(*args)`` in a child forked by the fork server; return (exit code, finished in time).
    A child still running after ``timeout`` seconds is killed."""
    with _children_lock:
        child = _fork_context().Process(target=target, args=args)
        child.start()
    finished = bool(multiprocessing.connection.wait([child.sentinel], timeout))
    with _children_lock:
        if not finished:
            child.kill()
        child.join()
        return child.exitcode, finished


_cache: dict[Path, Result] = {}
_pending: dict[Path, concurrent.futures.Future] = {}
_pool: concurrent.futures.ThreadPoolExecutor | None = None


def _absolute(path: Path | str) -> Path:
    path = Path(path)
    return (path if path.is_absolute() else ROOT / path).resolve()


def _result_key(path: Path) -> str:
    digest = hashlib.sha256(path.read_bytes())
    digest.update((ROOT / "requirements.lock").read_bytes())
    digest.update(f"{RUNNER} {platform.python_version()} {platform.machine()} {sorted(SNIPPET_ENV.items())}".encode())
    return digest.hexdigest()[:24]


def _cached_result(path: Path) -> Result | None:
    if not use_result_cache or not path.is_file():
        return None
    kept = RESULT_CACHE / f"{_result_key(path)}.json"
    if not kept.exists():
        return None
    data = json.loads(kept.read_text(encoding="utf-8"))
    return Result(path, data["stdout"], data["stderr"], 0)


def _keep_result(result: Result) -> None:
    """Only a clean exit is kept: a failing snippet runs again next time."""
    if result.returncode == 0:
        RESULT_CACHE.mkdir(parents=True, exist_ok=True)
        kept = RESULT_CACHE / f"{_result_key(result.path)}.json"
        tmp = kept.with_name(f".{kept.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"stdout": result.stdout, "stderr": result.stderr}), encoding="utf-8")
        tmp.replace(kept)


def prefetch(paths: list[Path], jobs: int = 2) -> None:
    """Start running snippets in the background, `jobs` at a time; `run_snippet` then waits for them.
    Snippets with a kept result are not run (and if none needs running, TensorFlow is not even imported)."""
    global _pool
    paths = [path for path in map(_absolute, paths) if path.is_file() and path not in _cache and path not in _pending]
    for path in paths:
        cached = _cached_result(path)
        if cached is not None:
            _cache[path] = cached
    paths = [path for path in paths if path not in _cache]
    if not paths:
        return
    if _pool is None:
        _fork_context()  # set the environment before any thread starts the fork server
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="snippet")
    for path in map(_absolute, paths):
        if path not in _cache and path not in _pending:
            _pending[path] = _pool.submit(_run, path)


def cancel_prefetch() -> None:
    """Drop snippets that have not started (e.g. after `pytest -x` stopped early)."""
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)


def run_snippet(path: Path | str) -> Result:
    """Run one snippet in an isolated child process; results are cached for the session."""
    path = _absolute(path)
    if path in _cache:
        return _cache[path]
    if path in _pending:
        return _pending[path].result()
    return _run(path)


def _run(path: Path) -> Result:
    cached = _cached_result(path)
    if cached is not None:
        _cache[path] = cached
        return cached
    with tempfile.TemporaryDirectory() as tmp:
        out, err = Path(tmp, "stdout"), Path(tmp, "stderr")
        out.touch()
        err.touch()
        returncode, finished = launch(_run_in_child, (str(path), str(out), str(err)))
        if not finished:
            err.write_text(err.read_text() + f"\n[harness] killed after {TIMEOUT_SECONDS} s\n")
        result = Result(path, out.read_text(), err.read_text(), returncode)
    _cache[path] = result
    _keep_result(result)
    return result


def tensorflow_version() -> str:
    """The installed TensorFlow's version, the one the fork server imports (read from the package metadata,
    so checking it does not cost a TensorFlow import)."""
    from importlib import metadata

    for dist in ("tensorflow-cpu", "tensorflow"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "none"


def version_line() -> str:
    """What the site prints about the run that produced its outputs: what they depend on, TensorFlow and the
    platform. Not Python's version: Python 3.11, 3.12 and 3.13 print the same outputs (CI runs the tests under
    each), so a Python patch or minor release must not make the kept outputs look stale."""
    return f"TensorFlow {tensorflow_version()}, {platform.system()} {platform.machine()}"


def _select(args: list[str]) -> list[Path]:
    if not args:
        return all_snippets()
    chosen: list[Path] = []
    for arg in args:
        p = (ROOT / arg).resolve()
        if p.is_dir():
            chosen += sorted(q for q in p.rglob("*.py") if "__pycache__" not in q.parts)
        elif p.suffix == ".out":
            chosen.append(p.with_suffix(".py"))
        else:
            chosen.append(p)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="rewrite each snippet's kept .out with its real stdout")
    parser.add_argument("paths", nargs="*", help="snippet files or folders (default: every snippet)")
    args = parser.parse_args(argv)
    global use_result_cache
    use_result_cache = False  # `make outputs` runs every chosen snippet (its fresh result is kept)

    failed = 0
    chosen = _select(args.paths)
    prefetch(chosen)
    for snippet in chosen:
        result = run_snippet(snippet)
        if result.returncode != 0:
            failed += 1
            print(f"FAIL {result.rel} exited with {result.returncode}:\n{result.stderr[-3000:]}", file=sys.stderr)
            continue
        kept = output_path(snippet)
        old = kept.read_text() if kept.exists() else None
        if old == result.stdout:
            print(f"same    {relative(kept)}")
        elif args.update:
            kept.write_text(result.stdout)
            print(f"written {relative(kept)}")
        else:
            failed += 1
            print(f"STALE   {relative(kept)} (run with --update)")
    if args.update:
        line = version_line() + "\n"
        if VERSION_FILE.exists() and VERSION_FILE.read_text() == line:
            print(f"same    {relative(VERSION_FILE)}")
        else:
            VERSION_FILE.write_text(line)
            print(f"written {relative(VERSION_FILE)}: {line.strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
