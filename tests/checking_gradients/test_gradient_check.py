"""The gradient check's test set: each kind of broken gradient is reported in the contexts where it is wrong,
and only there; a correct gradient passes everywhere. The check is the canonical section of
snippets/checking_gradients/11_gradient_check.py, imported from that file (tests/checking_gradients/checker.py).

A row of the check compares order m with differences of your order m - 1, so a wrong first order shows at
order 1; forward mode and Keras fit look at the gradient in x only, and forward mode differentiates the
forward operations rather than calling grad (the checking chapter, #what-each-context-does).
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from tests.checking_gradients.checker import load

check = load()
XS = [-2.0, 0.0, 3.0]
REVERSE_1 = {("eager", 1), ("tf.function", 1), ("tf.gradients", 1), ("jit_compile", 1), ("Keras fit", 1)}
COMPILED = {("tf.function", 1), ("tf.gradients", 1), ("jit_compile", 1), ("Keras fit", 1)}
COMPILED_2 = {("tf.function", 2), ("tf.gradients", 2)}


def log1pexp_with(derivative):
    """log(1 + e^x) whose grad(dy) returns derivative(dy, x, e)."""

    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: derivative(dy, x, e)

    return log1pexp


def sigmoid(e):
    return 1 - 1 / (1 + e)


def failing(rows):
    return {key for key, (ok, _, _) in rows.items() if not ok}


def correct(saved):
    return check.check_gradient(log1pexp_with(lambda dy, x, e: dy * sigmoid(e)), XS, saved=saved)


def wrong_sign(saved):
    return check.check_gradient(log1pexp_with(lambda dy, x, e: -dy * sigmoid(e)), XS, saved=saved)


def ignores_dy(saved):
    return check.check_gradient(log1pexp_with(lambda dy, x, e: sigmoid(e)), XS, saved=saved)


def first_order_only(saved):
    """The derivative is right, but stop_gradient hides it from the next order."""
    grad = lambda dy, x, e: dy * tf.stop_gradient(sigmoid(e))  # noqa: E731
    return check.check_gradient(log1pexp_with(grad), XS, saved=saved)


def exprel():
    """expm1(x) / x, 1 at x = 0 (a Taylor series near 0); grad writes the removable point as 0 instead of 1/2."""

    @tf.custom_gradient
    def exprel(x):
        near = tf.abs(x) < 1e-3
        safe = tf.where(near, tf.ones_like(x), x)
        y = tf.where(near, 1 + x / 2 + x * x / 6, tf.math.expm1(safe) / safe)

        def grad(dy):
            nonzero = tf.where(x == 0, tf.ones_like(x), x)
            slope = (nonzero * tf.exp(nonzero) - tf.math.expm1(nonzero)) / nonzero**2
            return dy * tf.where(x == 0, tf.zeros_like(x), slope)

        return y, grad

    return exprel


def special_point_missed(saved):
    return check.check_gradient(exprel(), [-2.0, 0.5, 3.0], saved=saved)


def special_point_included(saved):
    return check.check_gradient(exprel(), XS, saved=saved)


def python_value_at_trace(saved):
    """A Python number (a loss weight) that the training loop changes: eager code reads it at every call, a
    traced function keeps the value of its trace (here, the first input's)."""
    config = {"scale": 1.0}

    @tf.custom_gradient
    def scaled(x):
        s, e = config["scale"], tf.exp(x)
        return s * tf.math.log(1 + e), lambda dy: dy * s * sigmoid(e)

    def inputs():
        yield XS
        config["scale"] = 2.0  # the next step of the training loop
        yield XS

    return check.check_gradient(scaled, inputs(), saved=saved)


def wrong_variables_gradient(saved):
    """log(1 + e^(w x)): d/dx is right, d/dw returns s * w instead of s * x."""
    w = tf.Variable([0.5, -1.0, 2.0], dtype=tf.float64)

    @tf.custom_gradient
    def scaled(x):
        e = tf.exp(w * x)

        def grad(dy, variables):
            s = sigmoid(e)
            return dy * s * w, [dy * s * w]

        return tf.math.log(1 + e), grad

    return check.check_gradient(scaled, [1.0, -1.0, 0.5], variables=[w], saved=saved)


def straight_through(saved):
    """round(x) with the identity as its intended gradient, checked against that rule."""

    @tf.custom_gradient
    def round_through(x):
        return tf.round(x), lambda dy: dy

    return check.check_gradient(round_through, [-1.2, 0.3, 2.6], k=1, rule=lambda x, dy: dy, saved=saved)


SECOND = {("eager", 2), ("tf.function", 2), ("tf.gradients", 2)}
# case: (the contexts that must report a mismatch, whether the reloaded SavedModel must match)
EXPECTED = {
    correct: (set(), True),
    wrong_sign: (REVERSE_1, False),
    ignores_dy: (REVERSE_1, False),
    first_order_only: (SECOND, True),
    special_point_missed: (set(), True),
    special_point_included: (REVERSE_1 | SECOND, False),
    python_value_at_trace: (COMPILED | COMPILED_2, False),
    wrong_variables_gradient: (REVERSE_1 - {("Keras fit", 1)}, False),
    # round has no derivative of its own, so eager forward mode transposes grad: the rule again
    straight_through: (set(), True),
}


@pytest.fixture(scope="module")
def results():
    """Every case checked once; their SavedModel rows from one fresh process, as a page pays one reload."""
    saved = check.SavedModelCheck()
    rows = {case: case(saved) for case in EXPECTED}
    return rows, dict(zip(EXPECTED, saved.run()))


@pytest.mark.parametrize("case", EXPECTED, ids=[case.__name__ for case in EXPECTED])
def test_each_broken_gradient_is_reported_where_it_is_wrong_and_only_there(results, case):
    rows, reloaded = results
    mismatches, saved_ok = EXPECTED[case]
    assert failing(rows[case]) == mismatches, (
        f"{case.__name__}: the check reported a mismatch in {sorted(failing(rows[case]))}, expected "
        f"{sorted(mismatches)}; rows: {rows[case]}"
    )
    name, ok, error = reloaded[case]
    assert ok is saved_ok, f"{case.__name__}: SavedModel reloaded in a fresh process: ok={ok}, error={error}"


def test_every_context_and_order_is_a_row_with_a_number(results):
    rows, _ = results
    for case, case_rows in rows.items():
        assert set(case_rows) >= REVERSE_1 | {("forward mode", 1)}, f"{case.__name__}: {sorted(case_rows)}"
        for key, (ok, error, note) in case_rows.items():
            assert isinstance(ok, (bool, np.bool_)) and np.isfinite(error), f"{case.__name__} {key}: {note}"


def test_a_context_that_raises_is_a_mismatch_with_its_error_as_the_note():
    @tf.custom_gradient
    def numpy_inside(x):
        return tf.identity(x), lambda dy: dy + 0 * x.numpy()  # a graph tensor has no NumPy value

    rows = check.check_gradient(numpy_inside, XS, k=1)
    assert rows["eager", 1][0], rows
    ok, error, note = rows["tf.function", 1]
    assert not ok and np.isnan(error) and note, rows


def test_keyword_calls_are_printed_as_a_limitation(capsys):
    check.check_gradient(log1pexp_with(lambda dy, x, e: dy * sigmoid(e)), XS, k=1)
    out = capsys.readouterr().out
    assert "keyword tensors: not checked" in out and "#keyword-arguments" in out, out
