"""The n-th order page: every method still gives the right derivatives up to order 8, and TensorFlow
still behaves the way the page says (override maps, opaque ops, graph growth).

Closed forms used: sin^(n)(x) = sin(x + n*pi/2); exp^(n) = exp; sigmoid^(k) is a polynomial in
s = sigmoid(x) (q_{k+1}(s) = q_k'(s) * s * (1 - s)); softplus^(n) = sigmoid^(n-1).
"""

import math
import re
import uuid

import numpy as np
import pytest
import tensorflow as tf
from numpy.polynomial import Polynomial

from tests.harness import run_snippet

DIR = "snippets/nth_order"
X = 0.5
ORDERS = range(1, 9)


# --- closed forms and the page's building blocks, in-process ---------------------------------------


def sigmoid_poly(k):
    p = Polynomial([0, 1])
    for _ in range(k):
        p = p.deriv() * Polynomial([0, 1, -1])
    return p


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


CLOSED_FORMS = {
    "sin": (tf.sin, lambda n, x: math.sin(x + n * math.pi / 2)),
    "exp": (tf.exp, lambda n, x: math.exp(x)),
    "sigmoid": (tf.sigmoid, lambda n, x: sigmoid_poly(n)(sigmoid(x))),
    "softplus": (tf.math.softplus, lambda n, x: sigmoid_poly(n - 1)(sigmoid(x))),
}


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


def make_sin(k, calls=None):
    @tf.custom_gradient
    def sin_k(x):
        def grad(dy):
            if calls is not None:
                calls.append(k)
            return dy * make_sin(k + 1, calls)(x)

        return tf.sin(x + k * math.pi / 2), grad

    return sin_k


def make_exp(k=0):
    @tf.custom_gradient
    def exp_k(x):
        return tf.exp(x), lambda dy: dy * make_exp(k + 1)(x)

    return exp_k


def in_both_modes(f, n, x=X):
    """(eager value, tf.function value) of the n-th derivative of f at x."""
    xt = tf.constant(x, tf.float64)
    eager = nth_derivative(f, xt, n)
    graph = tf.function(lambda x: nth_derivative(f, x, n))(xt)
    assert eager is not None and graph is not None, f"order {n}: a nested tape returned None"
    return float(eager), float(graph)


@pytest.mark.parametrize("name", sorted(CLOSED_FORMS))
@pytest.mark.parametrize("n", ORDERS)
def test_nested_tapes_match_closed_forms_eager_and_in_tf_function(name, n):
    f, exact = CLOSED_FORMS[name]
    eager, graph = in_both_modes(f, n)
    want = exact(n, X)
    assert eager == pytest.approx(want, rel=1e-9, abs=1e-12), f"nested tapes, {name}^({n}) eager: {eager} != {want}"
    assert graph == pytest.approx(want, rel=1e-9, abs=1e-12), (
        f"nested tapes, {name}^({n}) tf.function: {graph} != {want}"
    )


@pytest.mark.parametrize("n", ORDERS)
def test_custom_gradient_recursion_matches_closed_forms(n):
    for label, f, want in [
        ("make_sin", make_sin(0), math.sin(X + n * math.pi / 2)),
        ("make_exp", make_exp(0), math.exp(X)),
    ]:
        eager, graph = in_both_modes(f, n)
        assert eager == pytest.approx(want, rel=1e-12, abs=1e-12), f"{label}: order {n} eager {eager} != {want}"
        assert graph == pytest.approx(want, rel=1e-12, abs=1e-12), f"{label}: order {n} tf.function {graph} != {want}"


def test_each_order_calls_the_next_custom_grad():
    """Order n runs the grad of make_sin(0) ... make_sin(n-1): TF really differentiates grad by its own grad."""
    calls = []
    nth_derivative(make_sin(0, calls), tf.constant(X, tf.float64), 6)
    assert sorted(set(calls)) == [0, 1, 2, 3, 4, 5], f"custom grads called for orders {sorted(set(calls))}"


def test_compute_gradient_agrees_with_the_next_order():
    """tf.test.compute_gradient (finite differences) of the 5th derivative is the 6th derivative."""
    fifth = lambda x: nth_derivative(tf.sin, x, 5)  # noqa: E731
    theoretical, numerical = tf.test.compute_gradient(fifth, [tf.constant([X], tf.float64)])
    sixth = math.sin(X + 6 * math.pi / 2)
    assert theoretical[0][0, 0] == pytest.approx(sixth, abs=1e-12)
    assert numerical[0][0, 0] == pytest.approx(sixth, abs=1e-6)


# --- the RegisterGradient route (unique registry names: the registry is process-wide) -------------


def opaque_sin(x, k, gradient_name=None):
    overrides = {"PyFunc": gradient_name} if gradient_name else {}
    with tf.compat.v1.get_default_graph().gradient_override_map(overrides):
        return tf.numpy_function(lambda x, k: np.sin(x + k * np.pi / 2), [x, k], tf.float64)


def register(fn):
    name = f"NthOrderTest_{uuid.uuid4().hex}"
    tf.RegisterGradient(name)(fn)
    return name


def nested_tf_gradients(y, x, n):
    out = []
    for _ in range(n):
        y = tf.gradients(y, x)[0]
        out.append(y)
        if y is None:
            break
    return out


def test_registered_gradient_of_tf_ops_gives_every_order_in_graph_and_tf_function():
    name = register(lambda op, dy: (dy * tf.cos(op.inputs[0] + op.inputs[1] * math.pi / 2), None))
    build = lambda x: nested_tf_gradients(opaque_sin(x, tf.constant(0.0, tf.float64), name), x, 8)  # noqa: E731
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(X, tf.float64)
        ds = build(x)
    with tf.compat.v1.Session(graph=graph) as session:
        in_graph = session.run(ds)
    in_function = [float(d) for d in tf.function(build)(tf.constant(X, tf.float64))]
    for n in ORDERS:
        want = math.sin(X + n * math.pi / 2)
        assert in_graph[n - 1] == pytest.approx(want, abs=1e-12), f"tf.Graph order {n}"
        assert in_function[n - 1] == pytest.approx(want, abs=1e-12), f"tf.function order {n}"


def test_opaque_gradient_stops_at_order_2_unless_it_gets_a_gradient_too():
    once = register(lambda op, dy: (dy * opaque_sin(op.inputs[0], op.inputs[1] + 1), None))
    every_name = f"NthOrderTest_{uuid.uuid4().hex}"
    tf.RegisterGradient(every_name)(lambda op, dy: (dy * opaque_sin(op.inputs[0], op.inputs[1] + 1, every_name), None))

    @tf.function
    def orders(x, name):
        return nested_tf_gradients(opaque_sin(x, tf.constant(0.0, tf.float64), name), x, 8)

    x = tf.constant(X, tf.float64)
    stopped = orders(x, once)
    assert len(stopped) == 2 and stopped[1] is None, (
        f"an opaque PyFunc inside a registered gradient no longer gives a None second derivative: {stopped}"
    )
    assert float(stopped[0]) == pytest.approx(math.cos(X), abs=1e-12)
    every = orders(x, every_name)
    for n in ORDERS:
        assert float(every[n - 1]) == pytest.approx(math.sin(X + n * math.pi / 2), abs=1e-12), f"order {n}"


def test_nested_tapes_outside_tf_function_apply_the_override_at_every_order():
    name = register(lambda op, dy: dy * tf.cos(op.inputs[0]))

    def numpy_sin(x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"PyFunc": name}):
            return tf.numpy_function(np.sin, [x], tf.float64)

    x = tf.constant(X, tf.float64)
    for n in ORDERS:
        d = nth_derivative(tf.function(numpy_sin), x, n)
        assert d is not None and float(d) == pytest.approx(math.sin(X + n * math.pi / 2), abs=1e-12), (
            f"order {n}: nested tapes outside the tf.function no longer apply gradient_override_map ({d}); "
            "update docs/nth-order.md#registergradient"
        )
    assert nth_derivative(numpy_sin, x, 1) is None, (
        "an eager tape now applies gradient_override_map: update docs/registergradient-vs-custom-gradient.md"
        "#where-override-applies and the pages that link there"
    )


# --- what the snippets print ------------------------------------------------------------------------


def stdout_of(name):
    path = f"{DIR}/{name}"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return path, result.stdout


def table(path, out):
    """Rows 'n | a | b | ...' of a printed table, as lists of strings (header skipped)."""
    rows = [[c.strip() for c in line.split("|")] for line in out.splitlines() if re.match(r"\s*\d+ \|", line)]
    assert [int(r[0]) for r in rows] == list(ORDERS), f"{path}: expected rows for orders 1..8, got:\n{out}"
    return rows


@pytest.mark.parametrize(
    "name, closed_form, tolerance",
    [
        ("01_nested_tapes_sin.py", lambda n: math.sin(X + n * math.pi / 2), 1e-14),
        ("02_nested_tapes_softplus.py", lambda n: sigmoid_poly(n - 1)(sigmoid(X)), 1e-11),
        ("03_custom_gradient_recursion_sin.py", lambda n: math.sin(X + n * math.pi / 2), 1e-14),
        ("05_custom_gradient_recursion_sigmoid.py", lambda n: sigmoid_poly(n)(sigmoid(X)), 1e-14),
        ("06_registergradient_nested_tf_gradients.py", lambda n: math.sin(X + n * math.pi / 2), 1e-14),
    ],
)
def test_printed_tables_agree_with_closed_forms(name, closed_form, tolerance):
    path, out = stdout_of(name)
    for n, first, second, exact, error in table(path, out):
        n = int(n)
        want = closed_form(n)
        for label, value in [("first column", first), ("second column", second), ("closed form", exact)]:
            assert float(value) == pytest.approx(want, abs=1e-10), f"{path}: order {n} {label} {value} != {want:.10f}"
        assert float(error) <= tolerance, f"{path}: order {n} error {error} is above {tolerance}"


def test_printed_opaque_table_shows_none_then_every_order():
    path, out = stdout_of("07_registergradient_opaque_gradient.py")
    rows = table(path, out)
    assert rows[0][1] != "None" and all(r[1] == "None" for r in rows[1:]), f"{path}: 'only once' column changed:\n{out}"
    for n, _, every, exact in rows:
        assert float(every) == pytest.approx(math.sin(X + int(n) * math.pi / 2), abs=1e-10), f"{path}: order {n}"
        assert every == exact, f"{path}: order {n}: {every} != {exact}"


def test_printed_nested_tapes_with_override_map():
    path, out = stdout_of("08_registergradient_nested_tapes.py")
    for n, value, exact, error in table(path, out):
        want = math.sin(X + int(n) * math.pi / 2)
        assert float(value) == pytest.approx(want, abs=1e-10), f"{path}: order {n}: {value} != {want:.10f}"
        assert value == exact and float(error) <= 1e-14, f"{path}: order {n}"


def test_op_counts_grow_the_way_the_page_says():
    path, out = stdout_of("09_op_count_by_order.py")
    rows = [[int(c) for c in r] for r in table(path, out)]
    sin_ops, sigmoid_ops, custom_ops = ([r[i] for r in rows] for i in (1, 2, 3))
    for label, counts in [("sin", sin_ops), ("sigmoid", sigmoid_ops), ("custom", custom_ops)]:
        assert all(a < b for a, b in zip(counts, counts[1:])), f"{path}: {label} op counts not increasing: {counts}"
    sin_steps = {b - a for a, b in zip(sin_ops, sin_ops[1:])}
    assert max(sin_steps) <= 8, f"{path}: nested tapes on sin no longer grow by a few ops per order: {sin_ops}"
    ratios = [b / a for a, b in zip(sigmoid_ops[3:], sigmoid_ops[4:])]
    assert min(ratios) > 2, f"{path}: nested tapes on sigmoid no longer more than double per order: {sigmoid_ops}"
    assert custom_ops[0] > sigmoid_ops[0] and custom_ops[-1] * 5 < sigmoid_ops[-1], (
        f"{path}: the custom recursion is no longer dearer at order 1 and far cheaper at order 8: {custom_ops}"
    )
    steps = [b - a for a, b in zip(custom_ops, custom_ops[1:])]
    assert all(0 <= b - a <= 5 for a, b in zip(steps, steps[1:])), (
        f"{path}: the custom recursion no longer grows by a few more ops per order (quadratic): {custom_ops}"
    )


def test_hessian_vector_product_matches_closed_form():
    path, out = stdout_of("10_hessian_vector_product.py")
    x = np.array([0.0, 1.0, 2.0])
    v = np.array([1.0, 0.0, -1.0])
    p = np.exp(x) / np.exp(x).sum()
    want = (np.diag(p) - np.outer(p, p)) @ v
    lines = [line for line in out.splitlines() if "[" in line]
    assert len(lines) == 3, f"{path}: expected three vectors, got:\n{out}"
    for line in lines:
        got = np.array([float(t) for t in line.split("[")[1].rstrip("]").split()])
        np.testing.assert_allclose(got, want, atol=1e-8, err_msg=f"{path}: {line}")


def test_printed_next_order_outside_tensorflow_is_none():
    path, out = stdout_of("04_next_order_outside_tensorflow.py")
    assert f"order 1: {math.cos(X):+.10f}" in out, f"{path}: first order changed:\n{out}"
    assert "order 2: None" in out, (
        f"{path}: a grad computed with NumPy no longer cuts the second derivative to None:\n{out}"
    )


def test_grad_outside_tensorflow_gives_no_second_derivative():
    @tf.custom_gradient
    def sin_with_numpy_grad(x):
        return tf.sin(x), lambda dy: dy * tf.constant(np.cos(x.numpy()))

    x = tf.constant(X, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = sin_with_numpy_grad(x)
        first = inner.gradient(y, x)
    assert float(first) == pytest.approx(math.cos(X), abs=1e-12)
    assert outer.gradient(first, x) is None, "a NumPy-computed grad now has a second derivative: update the page"


def test_builtin_gradient_op_without_gradient_gives_none_at_order_2():
    def f(x):
        return tf.reduce_sum(tf.image.resize(x, [3, 3], "bilinear") ** 2)

    x = tf.reshape(tf.constant([1.0, 2.0, 3.0, 4.0]), [1, 2, 2, 1])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x)
    assert first is not None
    assert outer.gradient(first, x) is None, (
        "ResizeBilinearGrad has a gradient now: the second derivative through tf.image.resize is no longer None; "
        "update docs/nth-order.md (and .ru.md) section #next-order-outside-tensorflow and "
        "snippets/nth_order/09_builtin_gradient_without_gradient.py"
    )


def test_numpy_function_op_type_is_pyfunc_only_when_stateful():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(0.5, tf.float64)
        stateful = tf.numpy_function(np.sin, [x], tf.float64)
        stateless = tf.numpy_function(np.sin, [x], tf.float64, stateful=False)
    assert stateful.op.type == "PyFunc", (
        f"tf.numpy_function now builds {stateful.op.type!r}; update docs/nth-order.md (and .ru.md) section "
        "#registergradient and snippets/nth_order/07_registergradient_opaque_gradient.py"
    )
    assert stateless.op.type != "PyFunc", (
        "tf.numpy_function(stateful=False) now builds a PyFunc op too; the page says it builds another op type"
    )
