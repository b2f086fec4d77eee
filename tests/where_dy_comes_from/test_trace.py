"""Where dy comes from: the traces the page shows, checked against hand-computed values and plain autodiff.

log1pexp(x) = log(1 + e^x); its derivative is sigmoid(x). At x = 0: y = log 2, sigmoid = 0.5.
Each test names the snippet it reads; a failure means TensorFlow (or the snippet) now behaves differently
from what docs/where-dy-comes-from.md says.
"""

import math
import re

import numpy as np
import pytest
import tensorflow as tf

from tests.harness import run_snippet

DIR = "snippets/where_dy_comes_from"
LOG2 = math.log(2.0)
TOL = 1e-4


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def stdout_of(name):
    path = f"{DIR}/{name}"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return path, result.stdout.splitlines()


def numbers(line):
    return [float(v) for v in re.findall(r"-?\d+\.\d+|-?\d+\.(?!\d)|(?<![\w.])-?\d+(?![\w.])", line)]


def lines_with(path, lines, prefix):
    found = [line for line in lines if line.strip().startswith(prefix)]
    assert found, f"{path}: no output line starts with {prefix!r}; the snippet's output changed:\n" + "\n".join(lines)
    return found


def dy_values(path, lines):
    return [float(re.search(r"dy = (-?\d+\.\d+)", line).group(1)) for line in lines_with(path, lines, "backward:")]


def plain_grad(target, x0):
    """d target(log1pexp(x)) / dx at x0 with TensorFlow's own autodiff (no custom gradient)."""
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = target(tf.math.log(1 + tf.exp(x)))
    return float(tape.gradient(L, x))


def test_grad_runs_only_inside_tape_gradient_with_dy_one():
    path, lines = stdout_of("01_trace_output_is_target.py")
    order = [
        next(i for i, line in enumerate(lines) if line.startswith(p))
        for p in ("forward:", "forward pass done", "calling tape.gradient", "backward:")
    ]
    assert order == sorted(order), (
        f"{path}: grad no longer runs after the forward pass, inside tape.gradient:\n" + "\n".join(lines)
    )
    assert dy_values(path, lines) == [1.0], f"{path}: when y itself is the target, dy should be 1"
    (result,) = numbers(lines_with(path, lines, "dy/dx")[0])
    assert result == pytest.approx(sigmoid(0.0), abs=TOL)


@pytest.mark.parametrize(
    "name, expected_dy, target",
    [
        ("02_dy_for_L_equals_3y.py", 3.0, lambda y: 3.0 * y),
        ("03_dy_for_L_equals_y_squared.py", 2 * LOG2, lambda y: y**2),
        ("04_output_gradients.py", 5.0, lambda y: 5.0 * y),  # output_gradients=5 acts like L = 5 * y
    ],
)
def test_dy_is_dL_dy(name, expected_dy, target):
    path, lines = stdout_of(name)
    (dy,) = dy_values(path, lines)
    assert dy == pytest.approx(expected_dy, abs=TOL), (
        f"{path}: grad received dy = {dy}, expected dL/dy = {expected_dy:.4f}"
    )
    result = numbers(lines[-1])[0]
    assert result == pytest.approx(expected_dy * sigmoid(0.0), abs=TOL), f"{path}: result is not dy * sigmoid(0)"
    assert result == pytest.approx(plain_grad(target, 0.0), abs=TOL), f"{path}: result differs from plain autodiff"


def test_output_gradients_becomes_dy_in_process():
    seen = []

    @tf.custom_gradient
    def f(x):
        def grad(dy):
            seen.append(float(dy))
            return dy * 2.0

        return 2.0 * x, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x, output_gradients=tf.constant(7.0))) == 14.0
    assert seen == [7.0]


def test_vector_dy_has_output_shape_and_carries_weights():
    path, lines = stdout_of("05_vector_output_weighted.py")
    backward = lines_with(path, lines, "backward:")
    assert len(backward) == 3, f"{path}: expected three backward passes"
    assert numbers(backward[0].split("=")[1]) == [1.0, 2.0, 3.0], f"{path}: dy should be the weights w"
    assert numbers(backward[1].split("=")[1]) == [1.0, 1.0, 1.0], f"{path}: a non-scalar target should start from ones"
    assert numbers(backward[2].split("=")[1]) == [5.0], f"{path}: a scalar output_gradients should arrive as it is"
    xs, w = [-1.0, 0.0, 1.0], [1.0, 2.0, 3.0]
    results = [line for line in lines if line.startswith(("dL/dx", "result"))]
    np.testing.assert_allclose(numbers(results[0].split("=")[1]), [wi * sigmoid(x) for wi, x in zip(w, xs)], atol=TOL)
    np.testing.assert_allclose(numbers(results[1].split("=")[1]), [sigmoid(x) for x in xs], atol=TOL)
    np.testing.assert_allclose(numbers(results[2].split("=")[1]), [5 * sigmoid(x) for x in xs], atol=TOL)


def test_two_consumers_are_summed_and_grad_runs_once():
    path, lines = stdout_of("06_two_consumers.py")
    assert len(lines_with(path, lines, "forward:")) == 1
    dys = dy_values(path, lines)
    assert len(dys) == 3, f"{path}: grad should run exactly once per tape.gradient call, ran {len(dys)} times"
    assert dys == pytest.approx([3.0, 2 * LOG2, 3.0 + 2 * LOG2], abs=TOL), f"{path}: dy is not 3, 2y, 3 + 2y"
    results = [numbers(line)[0] for line in lines_with(path, lines, "result")]
    targets = [lambda y: 3.0 * y, lambda y: y**2, lambda y: 3.0 * y + y**2]
    assert results == pytest.approx([plain_grad(t, 0.0) for t in targets], abs=TOL)


def test_chain_inner_dy_is_outer_result():
    path, lines = stdout_of("07_chain_of_two.py")
    kinds = [
        line.split(" grad")[0] if line.startswith("backward") else line.split("(")[0]
        for line in lines
        if line.startswith(("forward", "backward"))
    ]
    assert kinds == ["forward: log1pexp", "forward: square", "backward: square", "backward: log1pexp"], (
        f"{path}: forward functions should run in order and grad functions in reverse order:\n" + "\n".join(lines)
    )
    outer = numbers(lines_with(path, lines, "backward: square")[0])  # [dy, 2, 2*y*dy]
    inner = numbers(lines_with(path, lines, "backward: log1pexp")[0])  # [dy, dy, sigmoid, result]
    assert outer[0] == 1.0, f"{path}: the outer grad should receive the starting dy = 1"
    assert inner[0] == outer[-1], f"{path}: the inner grad's dy is no longer the outer grad's result"
    assert outer[-1] == pytest.approx(2 * LOG2, abs=TOL)
    dx, plain = numbers(lines[-1])
    assert dx == pytest.approx(2 * LOG2 * 0.5, abs=TOL)
    assert dx == plain == pytest.approx(plain_grad(lambda y: y**2, 0.0), abs=TOL)


def test_stored_value_is_reused_and_dy_changes():
    path, lines = stdout_of("08_stored_vs_flowing.py")
    assert len(lines_with(path, lines, "forward:")) == 1, f"{path}: expected one forward pass"
    backward = lines_with(path, lines, "backward:")
    stored = {numbers(line)[0] for line in backward}
    assert stored == {round(math.e, 4)}, f"{path}: grad should reuse the stored e = exp(1) every time"
    y1 = math.log(1 + math.e)
    assert dy_values(path, lines) == pytest.approx([1.0, 3.0, 2 * y1], abs=TOL)
    results = [numbers(line)[0] for line in lines_with(path, lines, "result")]
    targets = [lambda y: y, lambda y: 3.0 * y, lambda y: y**2]
    assert results == pytest.approx([plain_grad(t, 1.0) for t in targets], abs=TOL)


def test_each_training_step_gets_a_fresh_dy():
    path, lines = stdout_of("09_fresh_each_step.py")
    x = 1.0
    dys = dy_values(path, lines)
    assert len(dys) == 3
    for step, dy in enumerate(dys, start=1):
        y = math.log(1 + math.exp(x))
        assert dy == pytest.approx(2 * y, abs=TOL), f"{path}: step {step}: dy is not 2*y of this step"
        x -= 0.5 * 2 * y * sigmoid(x)


def test_grad_returns_a_vjp_equal_to_dy_times_jacobian():
    path, lines = stdout_of("10_vjp_vs_jacobian.py")
    W = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    dy = np.array([1.0, 10.0])
    vjp = numbers(lines_with(path, lines, "grad(dy)")[0].split("=")[-1])
    dyJ = numbers(lines_with(path, lines, "dy @ J")[0].split("=")[-1])
    np.testing.assert_allclose(vjp, W @ dy, err_msg=f"{path}: grad(dy) is not W @ dy")
    np.testing.assert_allclose(dyJ, vjp, err_msg=f"{path}: dy @ J from tape.jacobian differs from grad(dy)")
    assert lines[-1].endswith("True"), f"{path}: tape.jacobian of the custom function differs from plain autodiff"


def test_ignoring_dy_is_right_alone_and_wrong_when_composed():
    path, lines = stdout_of("11_ignoring_dy.py")
    expected = {"y": 0.5, "3 * y": 1.5, "y ** 2": LOG2, "sin(y)": math.cos(LOG2) * 0.5}
    rows = lines_with(path, lines, "L =")
    assert len(rows) == len(expected)
    for row, (name, good) in zip(rows, expected.items()):
        bad, plain = numbers(row.split("ignoring dy:")[1])
        assert bad == 0.5, f"{path}: L = {name}: a grad ignoring dy should always give the local derivative 0.5"
        assert plain == pytest.approx(good, abs=TOL), f"{path}: L = {name}: plain autodiff should give {good:.4f}"
        assert row.endswith("right" if name == "y" else "WRONG"), f"{path}: verdict changed: {row}"


def test_several_inputs_and_outputs():
    path, lines = stdout_of("12_several_inputs_outputs.py")
    backward = [numbers(line) for line in lines_with(path, lines, "backward:")]
    assert backward == [[1.0, 10.0], [1.0, 0.0]], (
        f"{path}: expected du, dv = (1, 10) for u + 10v and (1, 0) (zeros for the unused output) for u"
    )
    results = lines_with(path, lines, "result")
    # x = 2, w = 3, n = 2: d(u + 10v)/dx = w + 10 * n * x = 43, d/dw = x = 2; n gets None
    assert results[0].endswith("[43.0, 2.0, None]") and results[1].endswith("[3.0, 2.0, None]"), (
        f"{path}: gradients changed:\n" + "\n".join(results)
    )


def test_unused_output_gets_zero_dy_and_none_passes_through_in_process():
    seen = []

    @tf.custom_gradient
    def f(a, b):
        def grad(du, dv):
            seen.append((float(du), float(dv)))
            return du * b, None

        return (a * b, a + b), grad

    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        u, _ = f(a, b)
    ga, gb = tape.gradient(u, [a, b])
    assert seen == [(1.0, 0.0)], "an output that does not reach the target should arrive as dy = 0, not None"
    assert float(ga) == 3.0 and gb is None


def test_inside_tf_function_grad_python_runs_once_tf_print_every_call():
    path, all_lines = stdout_of("13_inside_tf_function.py")
    split = next(i for i, line in enumerate(all_lines) if line.startswith("tape outside"))
    persistent = next(i for i, line in enumerate(all_lines) if line.startswith("a persistent tape outside"))
    lines, outside, persistent_outside = (
        all_lines[:split],
        all_lines[split + 1 : persistent],
        all_lines[persistent + 1 :],
    )
    assert len(lines_with(path, lines, "forward: Python")) == 1, (
        f"{path}: the forward Python code should run once (tracing)"
    )
    traced = lines_with(path, lines, "backward: grad's Python")
    assert len(traced) == 1 and traced[0].endswith("SymbolicTensor"), (
        f"{path}: grad's Python code should run once, at tracing, with a symbolic dy:\n" + "\n".join(lines)
    )
    assert lines_with(path, lines, "backward: dy =") == ["  backward: dy = 3"] * 2, (
        f"{path}: tf.print should show dy = 3 on each call"
    )
    results = [numbers(line)[0] for line in lines_with(path, lines, "result")]
    assert results == pytest.approx([3 * sigmoid(0.0), 3 * sigmoid(1.0)], abs=TOL)
    assert [line.strip().split(":")[0] for line in outside] == [
        "forward",
        "backward",
        "forward pass done",
        "result = 1.5000",
    ], (
        f"{path}: with the tape outside the tf.function, grad's Python should run during the forward pass and "
        "tf.print in grad should print nothing; update docs/where-dy-comes-from.md (and .ru.md) #inside-tf-function:\n"
        + "\n".join(outside)
    )
    assert [line.strip().split(":")[0] for line in persistent_outside] == [
        "backward",
        "backward",
        "forward pass done",
        "result = 1.5000",
    ], (
        f"{path}: a persistent tape outside the traced function should run grad's Python again (twice), at the call; "
        "update docs/where-dy-comes-from.md (and .ru.md) #inside-tf-function:\n" + "\n".join(persistent_outside)
    )


# (tape and gather in a tf.function?, the custom-gradient function in a tf.function of its own?) -> what grad receives
GATHER_CONTEXTS = {
    "eager": (False, False, "IndexedSlices"),
    "all in one tf.function": (True, False, "IndexedSlices"),
    "custom function in its own tf.function, gather and tape eager": (False, True, "dense"),
    "custom function in its own tf.function, inside an outer tf.function": (True, True, "dense"),
}


@pytest.mark.parametrize("context", GATHER_CONTEXTS)
def test_dy_after_gather_is_indexed_slices_unless_the_function_is_in_its_own_tf_function(context):
    outer_function, own_function, expected = GATHER_CONTEXTS[context]
    seen = []

    @tf.custom_gradient
    def double(x):
        def grad(dy):
            seen.append("IndexedSlices" if isinstance(dy, tf.IndexedSlices) else "dense")
            return 2.0 * tf.convert_to_tensor(dy)

        return 2.0 * x, grad

    f = tf.function(double) if own_function else double

    def dL_dx(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            L = tf.reduce_sum(tf.gather(f(x), [0, 2]))
        return tape.gradient(L, x)

    run = tf.function(dL_dx) if outer_function else dL_dx
    result = run(tf.constant([1.0, 2.0, 3.0]))
    assert seen == [expected], (
        f"{context}: after tf.gather, grad now receives {seen} instead of {expected}; update "
        "docs/where-dy-comes-from.md (and .ru.md) #vector-output and snippets/where_dy_comes_from/15_dy_indexed_slices.py"
    )
    assert list(result.numpy()) == [2.0, 0.0, 2.0], f"{context}: tf.convert_to_tensor(dy) no longer gives the dense dy"


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "tape inside tf.function"])
def test_a_scalar_output_gradients_reaches_grad_unchecked(in_function):
    """docs/where-dy-comes-from.md#vector-output: TensorFlow does not check the shape of output_gradients."""
    shapes = []

    @tf.custom_gradient
    def double(x):
        def grad(dy):
            shapes.append(tuple(dy.shape))
            return 2.0 * dy

        return 2.0 * x, grad

    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = double(x)
        return tape.gradient(y, x, output_gradients=tf.constant(5.0))

    result = (tf.function(run) if in_function else run)(tf.constant([1.0, 2.0, 3.0]))
    fix = "update docs/where-dy-comes-from.md#vector-output (and .ru.md) and snippets/where_dy_comes_from/05_vector_output_weighted.py"
    assert shapes == [()], f"a scalar output_gradients now reaches grad with shape {shapes}; {fix}"
    assert tuple(result.shape) == (), f"the gradient of a (3,) input now has shape {tuple(result.shape)}; {fix}"


def test_a_persistent_tape_outside_a_traced_function_runs_grads_python_again():
    """docs/where-dy-comes-from.md#inside-tf-function: a second backward pass is built for higher orders."""
    calls = []

    @tf.custom_gradient
    def double(x):
        def grad(dy):
            calls.append(1)
            return 2.0 * dy

        return 2.0 * x, grad

    f = tf.function(double)
    x = tf.constant(1.0)
    counts = []
    for persistent in (False, False, True, True, False):
        with tf.GradientTape(persistent=persistent) as tape:
            tape.watch(x)
            y = f(x)
        assert float(tape.gradient(y, x)) == 2.0
        counts.append(len(calls))
    assert f.experimental_get_tracing_count() == 1
    assert counts[0] == counts[1] and counts[2] > counts[1] and counts[4] == counts[3] == counts[2], (
        f"grad's Python ran {counts} times (cumulative) for tapes non-persistent x2, persistent x2, non-persistent; "
        "update docs/where-dy-comes-from.md#inside-tf-function (and .ru.md) and snippets/where_dy_comes_from/13_inside_tf_function.py"
    )
