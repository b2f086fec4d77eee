"""tools/versions/alone.py: a snippet copied alone into an empty folder, run in its own process, recorded as
identical, different or failing. The "release" here is the Python running the tests (no TensorFlow needed)."""

from __future__ import annotations

import hashlib
import sys
import textwrap
from pathlib import Path

from tools.versions.alone import check, error_report, run_alone

PYTHON = sys.executable


def snippet(folder: Path, name: str, code: str, kept: str | None = None) -> tuple[Path, Path]:
    path = folder / name
    path.write_text(textwrap.dedent(code))
    out = path.with_suffix(".out")
    if kept is not None:
        out.write_text(kept)
    return path, out


def test_identical_output_is_recorded_without_an_output(tmp_path):
    path, out = snippet(tmp_path, "01_same.py", 'print("x = 0.5")\n', kept="x = 0.5\n")
    entry = check(PYTHON, path, out)
    assert entry == {
        "result": "identical",
        "snippet_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "kept_output_sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
    }


def test_different_output_keeps_this_releases_real_stdout(tmp_path):
    path, out = snippet(tmp_path, "02_changed.py", 'print("new")\nprint(" indented")\n', kept="old\n")
    entry = check(PYTHON, path, out)
    assert entry["result"] == "different"
    assert entry["output"] == "new\n indented\n"


def test_a_byte_of_difference_counts(tmp_path):
    path, out = snippet(tmp_path, "03_space.py", 'print("x = 0.5 ")\n', kept="x = 0.5\n")
    assert check(PYTHON, path, out)["result"] == "different"


def test_failing_keeps_stdout_then_exit_code_and_error_without_log_noise_or_temporary_paths(tmp_path):
    code = """\
        import sys
        print("before the error")
        print("2026-12-01 10:00:00.123456: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on.",
              file=sys.stderr)
        print("W0000 00:00:1764583200.123456   12345 cpu_feature_guard.cc:210] notice", file=sys.stderr)
        raise ValueError("Attempt to convert a value with an unsupported type")
    """
    path, out = snippet(tmp_path, "04_raises.py", code, kept="before the error\n")
    entry = check(PYTHON, path, out)
    assert entry["result"] == "failing"
    report = entry["output"]
    assert report.startswith("before the error\n--- exit code 1; stderr, TensorFlow's log lines left out ---\n")
    assert report.endswith("ValueError: Attempt to convert a value with an unsupported type\n")
    assert 'File "./04_raises.py", line 6' in report, report
    assert "oneDNN" not in report and "cpu_feature_guard" not in report
    assert "/tmp" not in report and str(tmp_path) not in report


def test_exit_code_other_than_zero_fails_even_with_the_kept_stdout(tmp_path):
    path, out = snippet(tmp_path, "05_exit.py", 'print("ok")\nraise SystemExit(3)\n', kept="ok\n")
    entry = check(PYTHON, path, out)
    assert entry["result"] == "failing"
    assert entry["output"].startswith("ok\n--- exit code 3; stderr")


def test_runs_alone_in_an_empty_folder_with_quiet_logs_and_nothing_of_ours(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    code = """\
        import os
        print(sorted(os.listdir(".")))
        print(os.environ["TF_CPP_MIN_LOG_LEVEL"], os.environ["PYTHONHASHSEED"])
        print("PYTHONPATH" in os.environ, "VIRTUAL_ENV" in os.environ)
    """
    path, _ = snippet(tmp_path, "06_where.py", code)
    (tmp_path / "neighbour.txt").write_text("a file beside the snippet in the repository\n")
    run = run_alone(PYTHON, path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "['06_where.py']\n3 0\nFalse False\n"


def test_a_snippet_that_needs_a_file_beside_it_fails_as_a_readers_copy_would(tmp_path):
    (tmp_path / "helper.py").write_text("VALUE = 1\n")
    path, out = snippet(tmp_path, "07_imports_helper.py", "import helper\nprint(helper.VALUE)\n", kept="1\n")
    entry = check(PYTHON, path, out)
    assert entry["result"] == "failing"
    assert "ModuleNotFoundError: No module named 'helper'" in entry["output"]


def test_a_snippet_that_hangs_is_killed_and_recorded(tmp_path):
    path, out = snippet(tmp_path, "08_hangs.py", 'print("started", flush=True)\nimport time\ntime.sleep(60)\n', "")
    entry = check(PYTHON, path, out, timeout=1)
    assert entry["result"] == "failing"
    assert entry["output"].startswith("started\n--- killed after 1 s; stderr")


def test_long_stderr_keeps_its_last_lines():
    from tools.versions.alone import STDERR_LINES, Run

    stderr = "".join(f"line {i}\n" for i in range(100))
    report = error_report(Run("", stderr, 1))
    assert (
        report.splitlines()[0]
        == f"--- exit code 1; last {STDERR_LINES} lines of stderr, TensorFlow's log lines left out ---"
    )
    assert report.splitlines()[1:] == [f"line {i}" for i in range(100 - STDERR_LINES, 100)]


def test_memory_addresses_in_an_error_do_not_change_from_run_to_run():
    from tools.versions.alone import Run

    report = error_report(Run("", "TypeError: <function f at 0x7f3a5c1d2e80> is not a tensor\n", 1))
    assert report.endswith("TypeError: <function f at 0x…> is not a tensor\n")


def test_prints_keep_their_order_with_output_written_outside_python(tmp_path):
    """tf.print inside a tf.function writes from C++ straight to the file descriptor, as os.write does here."""
    code = """\
        import os
        print("first, from Python")
        os.write(1, b"second, straight to the file descriptor\\n")
        print("third, from Python")
    """
    path, _ = snippet(tmp_path, "09_order.py", code)
    run = run_alone(PYTHON, path)
    assert run.stdout == "first, from Python\nsecond, straight to the file descriptor\nthird, from Python\n"
