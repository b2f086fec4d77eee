"""The gradient-checking page: the numbers the snippets print match closed forms, and
`tf.test.compute_gradient` still works the way the page says it does.

log1pexp(x) = log(1 + e^x); its derivative is sigmoid(x) = s, its second derivative s * (1 - s).
The page checks at x = -2, 0, 3.
"""

import math
import re

import numpy as np
import pytest
import tensorflow as tf

from tests.harness import run_snippet

DIR = "snippets/checking_gradients"
XS = [-2.0, 0.0, 3.0]


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def stdout_of(name):
    path = f"{DIR}/{name}"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return path, result.stdout


def numbers(line):
    return [float(v) for v in re.findall(r"-?\d+\.\d+(?:e[-+]?\d+)?", line)]


def line_starting(path, stdout, prefix):
    for line in stdout.splitlines():
        if line.startswith(prefix):
            return line
    pytest.fail(f"{path}: no output line starts with {prefix!r}; the snippet's output changed:\n{stdout}")


def order_of(path, stdout, prefix):
    match = re.search(re.escape(prefix) + r".*?order 1e([-+]?\d+)", stdout)
    assert match, f"{path}: no 'order 1eN' after {prefix!r} in:\n{stdout}"
    return int(match.group(1))


# --- 01: the correct gradient passes -------------------------------------------------------------


def test_first_order_check_shows_sigmoid_on_the_diagonal_and_passes():
    path, out = stdout_of("01_first_order_check.py")
    rows = [numbers(line) for line in out.splitlines() if line.startswith("   ")]
    assert len(rows) == 6, f"{path}: expected two 3x3 Jacobians, got:\n{out}"
    expected = np.diag([round(sigmoid(x), 4) for x in XS])
    np.testing.assert_allclose(
        rows[:3], expected, atol=1e-4, err_msg=f"{path}: theoretical Jacobian != diag(sigmoid(x))"
    )
    np.testing.assert_allclose(rows[3:], expected, atol=1e-4, err_msg=f"{path}: numerical Jacobian != diag(sigmoid(x))")
    assert order_of(path, out, "max error") <= -7, f"{path}: float64 error no longer tiny:\n{out}"
    assert out.rstrip().endswith("OK"), f"{path}: the correct gradient no longer passes:\n{out}"


# --- 02: a wrong formula is caught, but not at x = 0 ---------------------------------------------


def test_wrong_formula_is_caught_with_the_expected_gaps():
    path, out = stdout_of("02_wrong_gradient_caught.py")
    for x in XS:
        line = line_starting(path, out, f"x = {x:4.1f}")
        _, theoretical, numerical, gap = numbers(line)
        # The bug returns sigmoid(-x); finite differences give sigmoid(x); the gap is |tanh(x / 2)|.
        assert theoretical == pytest.approx(sigmoid(-x), abs=1e-4), f"{path}: {line}"
        assert numerical == pytest.approx(sigmoid(x), abs=1e-4), f"{path}: {line}"
        assert gap == pytest.approx(abs(math.tanh(x / 2)), abs=1e-4), f"{path}: {line}"
    last = line_starting(path, out, "max error")
    assert numbers(last)[0] == pytest.approx(math.tanh(1.5), abs=1e-4) and "WRONG GRADIENT" in last, f"{path}: {last}"


# --- 03: a grad that ignores dy passes on a scalar, fails on a vector ----------------------------


def test_missing_dy_hides_on_a_scalar_and_shows_on_a_vector():
    path, out = stdout_of("03_scalar_hides_missing_dy.py")
    assert numbers(line_starting(path, out, "scalar x:"))[0] == 0.0, (
        f"{path}: the scalar check no longer passes:\n{out}"
    )
    assert numbers(line_starting(path, out, "vector of 3:"))[0] == pytest.approx(sigmoid(3.0), abs=1e-4), out
    rows = [numbers(line) for line in out.splitlines() if line.lstrip().startswith("[")]
    expected = [[round(sigmoid(x), 4) for x in XS]] * 3
    np.testing.assert_allclose(rows, expected, atol=1e-4, err_msg=f"{path}: rows should all be sigmoid(x)")


def test_compute_gradient_feeds_one_hot_dy():
    """The page explains the theoretical Jacobian as 'grad called once per output with a one-hot dy'."""
    seen = []

    @tf.custom_gradient
    def double(x):
        def grad(dy):
            seen.append(dy.numpy().tolist())
            return 2.0 * dy

        return 2.0 * x, grad

    tf.test.compute_gradient(double, [tf.constant([1.0, 2.0, 3.0], tf.float64)])
    assert seen == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], (
        "tf.test.compute_gradient no longer calls grad with one-hot dy rows; "
        f"update the 'what compute_gradient does' section of docs/checking-gradients*.md (saw {seen})"
    )


def test_default_delta_is_one_over_1024():
    """The page states the default step; check it by the numerical Jacobian of x**3 at x = 1 (3 + delta**2)."""
    _, numerical = tf.test.compute_gradient(lambda x: x**3, [tf.constant([1.0], tf.float64)])
    assert numerical[0][0, 0] == pytest.approx(3 + (1 / 1024) ** 2, abs=1e-12), (
        "the default finite-difference step of tf.test.compute_gradient changed from 1/1024; update the page"
    )


# --- 04: float32 vs float64 ----------------------------------------------------------------------


def test_float32_error_is_much_larger_than_float64():
    path, out = stdout_of("04_float32_vs_float64.py")
    e32 = order_of(path, out, "float32")
    e64 = order_of(path, out, "float64")
    assert -6 <= e32 <= -3, f"{path}: float32 error order 1e{e32} is outside what the page's tolerance (1e-3) assumes"
    assert e64 <= -7, f"{path}: float64 error order 1e{e64} is above the page's tolerance (1e-6)"


# --- 05-06: second order -------------------------------------------------------------------------


def test_second_order_check_matches_s_times_one_minus_s():
    path, out = stdout_of("05_second_order_check.py")
    expected = [sigmoid(x) * (1 - sigmoid(x)) for x in XS]
    for prefix in ("2nd derivative, theoretical", "2nd derivative, numerical"):
        got = numbers(line_starting(path, out, prefix))
        np.testing.assert_allclose(got, expected, atol=1e-4, err_msg=f"{path}: {prefix}")
    assert order_of(path, out, "max error") <= -7 and out.rstrip().endswith("OK"), f"{path}:\n{out}"


def test_numpy_inside_grad_passes_first_order_and_fails_second():
    path, out = stdout_of("06_second_order_wrong_caught.py")
    assert order_of(path, out, "first order") <= -7, f"{path}: first order should still pass:\n{out}"
    second = numbers(line_starting(path, out, "second order"))[0]
    # The tape sees a zero second derivative; the largest true value is s(0) * (1 - s(0)) = 0.25.
    assert second == pytest.approx(0.25, abs=1e-4), f"{path}: second-order error changed:\n{out}"
    assert numbers(line_starting(path, out, "second derivative the tape sees")) == [0.0, 0.0, 0.0], out


# --- 11: the gradient check (its test set of broken gradients: test_gradient_check.py) ------------


def test_gradient_check_passes_log1pexp_in_every_context():
    path, out = stdout_of("11_gradient_check.py")
    rows = [line.split() for line in out.splitlines() if " order " in line]
    contexts = [" ".join(row[: row.index("order")]).rstrip(":") for row in rows]
    assert contexts == [
        "eager", "tf.function", "tf.gradients", "eager", "tf.function", "tf.gradients",
        "jit_compile", "Keras fit", "forward mode", "log1pexp: SavedModel",
    ], f"{path}: the contexts changed:\n{out}"  # fmt: skip
    assert all(row[-1] == "OK" for row in rows), f"{path}: a correct gradient failed the check:\n{out}"
    assert "keyword tensors: not checked" in out, f"{path}: the keyword limitation is not printed:\n{out}"


# --- 08: the variables part of grad ---------------------------------------------------------------


def test_variables_check_matches_sigmoid_times_x():
    path, out = stdout_of("08_check_variables_gradient.py")
    w, x = [0.5, -1.0, 2.0], [1.0, -1.0, 0.5]
    expected = [sigmoid(wi * xi) * xi for wi, xi in zip(w, x)]  # d/dw log(1 + e^(w x)) = sigmoid(w x) * x
    for prefix in ("w.r.t. w, theoretical diagonal", "w.r.t. w, numerical diagonal"):
        got = [float(v) for v in re.findall(r"-?\d+\.\d+", line_starting(path, out, prefix).split(":", 1)[1])]
        np.testing.assert_allclose(got, expected, atol=1e-4, err_msg=f"{path}: {prefix}")
    assert order_of(path, out, "max error") <= -7 and out.rstrip().endswith("OK"), f"{path}:\n{out}"


@pytest.mark.parametrize("n_in, n_out", [(1, 1), (3, 3), (2, 5), (6, 2)])
def test_compute_gradient_runs_the_function_1_plus_n_out_plus_2_n_in_times(n_in, n_out):
    calls = {"function": 0, "grad": 0}

    @tf.custom_gradient
    def f(x):
        calls["function"] += 1

        def grad(dy):
            calls["grad"] += 1
            return tf.ones_like(x) * tf.reduce_sum(dy)

        return tf.ones([n_out], x.dtype) * tf.reduce_sum(x), grad

    tf.test.compute_gradient(f, [tf.ones([n_in], tf.float64)])
    assert calls == {"function": 1 + n_out + 2 * n_in, "grad": n_out}, (
        f"{n_in} inputs, {n_out} outputs: {calls}; update docs/checking-gradients.md (and .ru.md) #limits and "
        "snippets/checking_gradients/09_what_the_check_costs.py"
    )


def _check_error(f, x):
    theoretical, numerical = tf.test.compute_gradient(f, [x])
    return theoretical[0], numerical[0]


def test_an_absolute_1e_6_fails_a_correct_exp_gradient_in_float64_and_a_relative_tolerance_passes():
    """docs/checking-gradients.md#why-float64: the finite difference's own error grows with the function."""

    @tf.custom_gradient
    def exp(x):
        e = tf.exp(x)
        return e, lambda dy: dy * e

    theoretical, numerical = _check_error(exp, tf.constant([-2.0, 0.0, 3.0], tf.float64))
    fix = "update docs/checking-gradients.md#why-float64 (and .ru.md) and snippets/checking_gradients/04_float32_vs_float64.py"
    assert np.max(np.abs(theoretical - numerical)) > 1e-6, f"a correct exp gradient now passes an absolute 1e-6; {fix}"
    assert np.allclose(numerical, theoretical, rtol=1e-5, atol=1e-8), f"rtol=1e-5, atol=1e-8 no longer passes; {fix}"


@pytest.mark.parametrize("mode", ["eager", "tf.function"])
def test_which_seed_makes_a_random_forward_pass_checkable(mode):
    """docs/checking-gradients.md#limits (randomness): op seed never, set_seed inside in eager only, stateless always."""
    x = tf.constant([0.5, -1.0, 2.0], tf.float64)

    def op_seed(x):
        return x * tf.random.normal([3], seed=1, dtype=tf.float64)

    def global_seed_inside(x):
        tf.random.set_seed(1)
        return x * tf.random.normal([3], dtype=tf.float64)

    def stateless(x):
        return x * tf.random.stateless_normal([3], seed=[1, 2], dtype=tf.float64)

    expected = {"op_seed": False, "global_seed_inside": mode == "eager", "stateless": True}
    fix = "update docs/checking-gradients.md#limits (and .ru.md) and snippets/checking_gradients/10_randomness.py"
    for f in (op_seed, global_seed_inside, stateless):
        run = tf.function(f) if mode == "tf.function" else f
        same = np.array_equal(run(x).numpy(), run(x).numpy())
        assert same == expected[f.__name__], f"{f.__name__}, {mode}: two calls equal is now {same}; {fix}"


# --- 12: forward mode and a custom grad (the baseline of #what-each-context-does) -----------------
# Three contexts: the accumulator (eager) over an eager call; the accumulator inside a tf.function; the
# accumulator (eager) around a call of a tf.function that holds the custom gradient.

FORWARDS = pytest.mark.parametrize(
    "forward", [tf.identity, tf.stop_gradient], ids=["forward has a derivative", "forward has none"]
)
STALE = "the page's #what-each-context-does is out of date"


def reversal(forward, calls):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            calls.append(1)
            return -dy

        return forward(x), grad

    return f


def jvp(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = f(x)
    return acc.jvp(y, unconnected_gradients="zero")


def snippet_line(context, forward):
    path, out = stdout_of("12_forward_mode_and_grad.py")
    block = out.split(f"forward = {forward.__name__}:")[1].split("forward =")[0]
    line = next(line for line in block.splitlines() if f"forward mode, {context}:" in line)
    return float(line.split(":")[1].split()[0]), f"{path}:\n{out}"


@FORWARDS
def test_forward_mode_eager_calls_grad_and_uses_it_only_when_the_forward_has_no_derivative(forward):
    calls = []
    f = reversal(forward, calls)
    got = float(jvp(f, tf.constant(2.0)))
    assert len(calls) == 1, f"eager forward mode called grad {len(calls)} times; {STALE}"
    assert got == (1.0 if forward is tf.identity else -1.0), f"eager forward mode gives {got}; {STALE}"
    assert snippet_line("eager", forward)[0] == got, snippet_line("eager", forward)[1]


@FORWARDS
def test_forward_mode_inside_tf_function_uses_the_forward_ops_derivative(forward):
    calls = []
    f = reversal(forward, calls)
    inside = tf.function(lambda x: jvp(f, x))
    got = float(inside(tf.constant(2.0)))
    assert got == (1.0 if forward is tf.identity else 0.0), f"forward mode in tf.function gives {got}; {STALE}"
    assert len(calls) == 1, f"forward mode in tf.function called grad {len(calls)} times while tracing; {STALE}"
    inside(tf.constant(3.0))  # the same trace: grad's Python does not run again
    assert len(calls) == 1, f"forward mode in tf.function called grad again on a traced call; {STALE}"
    assert snippet_line("in tf.function", forward)[0] == got, snippet_line("in tf.function", forward)[1]


@FORWARDS
def test_forward_mode_in_a_tf_function_around_another_tf_function_uses_grad(forward):
    """The accumulator inside a tf.function, watching a call of another tf.function that calls the custom gradient:
    grad's result, as around a tf.function in eager mode (the page's third context)."""
    inner = tf.function(reversal(forward, []))
    got = float(tf.function(lambda x: jvp(inner, x))(tf.constant(2.0)))
    assert got == -1.0, f"an accumulator in a tf.function around another tf.function gives {got}, not -1; {STALE}"


@FORWARDS
def test_forward_mode_around_a_tf_function_uses_grad(forward):
    f = tf.function(reversal(forward, []))
    got = float(jvp(f, tf.constant(2.0)))
    assert got == -1.0, f"an eager accumulator around a tf.function gives {got}, not grad's -1; {STALE}"
    assert snippet_line("around tf.function", forward)[0] == got, snippet_line("around tf.function", forward)[1]


def test_forward_mode_around_a_tf_function_raises_when_grad_calls_a_custom_gradient_function():
    """docs/checking-gradients.md#what-each-context-does: an eager accumulator around a tf.function raises
    TypeError (InternalError.__init__() missing 2 arguments) when grad calls its own or another custom-gradient
    function; eagerly the same functions give exp(1); a grad of ordinary ops uses grad around the tf.function."""

    @tf.custom_gradient
    def plain(x):
        return tf.exp(x), lambda dy: dy * tf.exp(x)

    @tf.custom_gradient
    def itself(x):
        return tf.exp(x), lambda dy: dy * itself(x)

    @tf.custom_gradient
    def another(x):
        return tf.exp(x), lambda dy: dy * plain(x)

    x = tf.constant(1.0)
    for f in (itself, another):
        with pytest.raises(TypeError, match=r"InternalError.__init__\(\) missing 2 required positional arguments"):
            with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)):
                tf.function(f)(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
            y = f(x)
        assert abs(float(acc.jvp(y)) - math.e) < 1e-6

    @tf.custom_gradient
    def doubled(x):  # grad's result differs from the forward's derivative: around a tf.function forward mode uses it
        return tf.exp(x), lambda dy: 2.0 * dy * tf.exp(x)

    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.function(doubled)(x)
    assert abs(float(acc.jvp(y)) - 2 * math.e) < 1e-5
    path, out = stdout_of("14_forward_mode_grad_calls_custom_gradient.py")
    assert out.count("TypeError: InternalError.__init__() missing 2 required positional arguments") == 2, (
        f"{path}:\n{out}"
    )
    assert out.count(": 2.7183") == 4, f"{path}:\n{out}"
