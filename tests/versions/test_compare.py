"""tools/versions/compare.py: a changed result is reported with a unified diff; an unchanged one is not."""

from tools.versions.compare import change

KEPT = "dy/dx = 2.0\n"


def test_identical_before_and_now_is_no_change():
    now = {"result": "identical"}
    assert change("snippets/a/01.py", None, now, KEPT, "kept output", "TensorFlow 2.22.0") is None
    assert change("snippets/a/01.py", {"result": "identical"}, now, KEPT, "committed", "this run") is None


def test_a_new_output_is_shown_as_a_diff_against_the_kept_one():
    report = change("snippets/a/01.py", None, {"result": "different", "output": "dy/dx = 2.5\n"}, KEPT,
                    "kept output", "TensorFlow 2.22.0")  # fmt: skip
    assert report.splitlines() == [
        "snippets/a/01.py: identical -> different",
        "--- snippets/a/01.py (kept output: identical)",
        "+++ snippets/a/01.py (TensorFlow 2.22.0: different)",
        "@@ -1 +1 @@",
        "-dy/dx = 2.0",
        "+dy/dx = 2.5",
    ]


def test_a_failure_that_changed_its_message_is_a_change():
    before = {"result": "failing", "output": "--- exit code 1\nValueError: old\n"}
    now = {"result": "failing", "output": "--- exit code 1\nValueError: new\n"}
    report = change("snippets/a/01.py", before, now, KEPT, "committed", "this run")
    assert report is not None and "-ValueError: old\n+ValueError: new\n" in report
    assert change("snippets/a/01.py", before, dict(before), KEPT, "committed", "this run") is None
