"""The readable tape of docs/where-dy-comes-from.md#readable-tape (snippets/where_dy_comes_from/16_readable_tape.py)
does what tf.GradientTape does on every case of the chapter: the same grad calls in the same order, each with the
same dy (to 1e-6), one call per function however many consumers its output has, and the same final gradient.
Both run here, in the test process, at several x."""

import runpy

import jupytext
import pytest

from tests.harness import ROOT

SNIPPET = "snippets/where_dy_comes_from/16_readable_tape.py"
TAPE = runpy.run_path(str(ROOT / SNIPPET), run_name="readable_tape")  # defines, does not print
XS = [-1.5, 0.0, 2.0]


CHAPTER_CASES = [case for case in TAPE["CASES"] if case not in TAPE["DIFFERENT"]]


@pytest.mark.parametrize("x", XS)
@pytest.mark.parametrize("case", CHAPTER_CASES)
def test_readable_tape_matches_tf_gradienttape_call_by_call(case, x):
    readable_calls, readable_dx = TAPE["readable_tape"](case, x)
    tf_calls, tf_dx = TAPE["tensorflow_tape"](case, x)
    where = f"{SNIPPET}, case {case!r}, x = {x}"
    assert [f for f, _ in readable_calls] == [f for f, _ in tf_calls], (
        f"{where}: grad calls {readable_calls} on the readable tape, {tf_calls} on tf.GradientTape"
    )
    for (f, readable_dy), (_, tf_dy) in zip(readable_calls, tf_calls):
        assert readable_dy == pytest.approx(tf_dy, abs=1e-6), f"{where}: {f}'s dy {readable_dy} vs {tf_dy}"
    assert readable_dx == pytest.approx(tf_dx, abs=1e-6), f"{where}: dL/dx {readable_dx} vs {tf_dx}"


def test_two_consumers_make_one_call_with_the_sum():
    calls, _ = TAPE["readable_tape"]("two consumers, L = 3*y + y**2", 0.0)
    assert [f for f, _ in calls] == ["log1pexp"], f"{SNIPPET}: grad should run once for two consumers: {calls}"
    y = TAPE["math"].log(2.0)
    assert calls[0][1] == pytest.approx(3 + 2 * y), f"{SNIPPET}: dy should be 3 + 2y, the sum of both consumers"


def test_the_tape_is_short_and_has_no_tensorflow_inside():
    text = (ROOT / SNIPPET).read_text()
    tape = text.split("# --8<-- [start:tape]\n")[1].split("# --8<-- [end:tape]")[0]
    lines = tape.strip("\n").splitlines()
    assert len(lines) <= 50, f"{SNIPPET}: the tape is {len(lines)} lines; the chapter promises at most 50"
    assert max(map(len, lines)) <= 80, f"{SNIPPET}: a tape line is wider than 80 columns"
    assert "tensorflow" not in tape and "tf." not in tape, f"{SNIPPET}: the tape must not use TensorFlow"
    assert tape.count("class ") == 0 and tape.count("namedtuple(") == 1, f"{SNIPPET}: one record type, no class"


def test_the_notebook_shows_the_same_tape():
    text = (ROOT / SNIPPET).read_text()
    tape = text.split("# --8<-- [start:tape]\n")[1].split("# --8<-- [end:tape]")[0].strip("\n")
    notebook = "docs/notebooks/where-dy-comes-from.py"
    cells = [c.source for c in jupytext.read(ROOT / notebook).cells if c.cell_type == "code"]
    shown = [c for c in cells if "Record = namedtuple" in c]
    assert shown == [tape], (
        f"{notebook}: the code cell with the readable tape must be exactly the [start:tape] section of {SNIPPET}; "
        "copy the section into the cell"
    )


def test_where_the_real_tape_differs_it_still_does():
    """docs/where-dy-comes-from.md#readable-tape, the last lines: the order of sibling consumers, and a grad whose
    input depends on nothing watched, which TensorFlow never records, so never calls."""
    where = f"{SNIPPET} and docs/where-dy-comes-from.md#readable-tape (and .ru.md)"
    siblings, nothing_watched = TAPE["DIFFERENT"]
    readable, tf_calls = TAPE["readable_tape"](siblings, 0.0)[0], TAPE["tensorflow_tape"](siblings, 0.0)[0]
    assert [f for f, _ in readable] == ["log1pexp", "square", "log1pexp"], f"{where}: readable order {readable}"
    assert [f for f, _ in tf_calls] == ["square", "log1pexp", "log1pexp"], (
        f"{where}: tf.GradientTape now calls sibling grads in the order {tf_calls}; reword the last lines"
    )
    readable, tf_calls = (
        TAPE["readable_tape"](nothing_watched, 0.0)[0],
        TAPE["tensorflow_tape"](nothing_watched, 0.0)[0],
    )
    assert [f for f, _ in readable] == ["square", "log1pexp"], f"{where}: readable calls {readable}"
    assert [f for f, _ in tf_calls] == ["log1pexp"], (
        f"{where}: tf.GradientTape now calls a grad whose input depends on nothing watched: {tf_calls}; reword the last lines"
    )
