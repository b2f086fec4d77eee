"""The recipes of docs/cookbook/special-functions.md, checked on TensorFlow itself.

Each built-in failure test names the section to rewrite when TensorFlow fixes it; each recipe test runs the page's
`recipe` section (not a copy) against its reference; the proofs are read from the snippets' real output.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import (
    assert_order_2_with_tapes_outside_matches_eager,
    blocks,
    recipe,
    second_derivative,
    stdout_of,
)
from tests.harness import ROOT

PAGE = "docs/cookbook/special-functions.md"
FIXED = "TensorFlow fixed it: rewrite {PAGE}#{anchor} (and .ru.md; say from which release) and its snippets"


# tf.math.zeta (#zeta-no-gradient-x)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_zeta_gradient_in_x_is_none_and_in_q_works(dtype):
    x, q = tf.constant(3.0, dtype), tf.constant(0.5, dtype)
    with tf.GradientTape() as tape:
        tape.watch([x, q])
        z = tf.math.zeta(x, q)
    dx, dq = tape.gradient(z, [x, q])
    assert dx is None, f"tf.math.zeta has a gradient in x now ({dx}): " + FIXED.format(
        PAGE=PAGE, anchor="zeta-no-gradient-x"
    )
    assert np.isclose(float(dq), -3 * float(tf.math.zeta(tf.constant(4.0, dtype), q)), rtol=1e-5)


def test_zeta_forward_mode_in_x_is_silently_zero():
    x, q = tf.constant(3.0, tf.float64), tf.constant(0.5, tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        z = tf.math.zeta(x, q)
    assert float(acc.jvp(z)) == 0, f"forward mode of tf.math.zeta in x changed: update {PAGE}#zeta-no-gradient-x-proof"


def long_sum_dx(x, q, n=200_000):
    """-sum log(u)/u^x over the first n terms plus the Euler-Maclaurin tail to B_2, in TF (differentiable in x)."""
    u = q + tf.range(n, dtype=tf.float64)
    a = q + n
    log_a = tf.math.log(a)
    s = -tf.reduce_sum(tf.math.log(u) * u**-x)
    s -= a ** (1 - x) * (log_a / (x - 1) + 1 / (x - 1) ** 2) + log_a * a**-x / 2
    return s + x * a ** (-x - 1) * (1 / x - log_a) / 12


GRID = [(x, q) for x in (1.0001, 1.01, 1.5, 3.0, 10.0, 50.0) for q in (1e-3, 0.1, 1.0, 10.0, 1e4)]


@pytest.mark.parametrize(("x", "q"), GRID)
def test_zeta_dx_and_its_x_derivative_match_a_long_sum(x, q):
    """#zeta-no-gradient-x-recipe: relative 1e-12 over 1.0001 <= x <= 50, 1e-3 <= q <= 1e4, at orders 1 and 2."""
    zeta_dx = recipe("71_zeta_every_order.py")["zeta_dx"]
    xt, qt = tf.constant([x], tf.float64), tf.constant(q, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        got = zeta_dx(xt, qt[None])
    got_dx = tape.gradient(got, xt)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        want = long_sum_dx(xt[0], qt)
    want_dx = tape.gradient(want, xt)
    np.testing.assert_allclose(got.numpy()[0], want.numpy(), rtol=1e-12)
    np.testing.assert_allclose(got_dx.numpy()[0], want_dx.numpy()[0], rtol=1e-12)


def test_zeta_recipe_value_gradients_and_mixed_derivative():
    """Values are tf.math.zeta's; d/dq of the x-gradient equals d/dx of the q-gradient; shapes broadcast."""
    zeta = recipe("71_zeta_every_order.py")["zeta"]
    x = tf.constant([[1.5], [3.0]], tf.float64)
    q = tf.constant([0.5, 2.0, 7.0], tf.float64)
    np.testing.assert_array_equal(zeta(x, q).numpy(), tf.math.zeta(x, q).numpy())
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, q])
        with tf.GradientTape(persistent=True) as inner:  # (persistent: two gradients each)
            inner.watch([x, q])
            z = zeta(x, q)
        dx = inner.gradient(z, x)
        dq = inner.gradient(z, q)
        sum_dx, sum_dq = tf.reduce_sum(dx), tf.reduce_sum(dq)
    assert dx.shape == x.shape and dq.shape == q.shape
    h = 1e-6
    fd = (tf.reduce_sum(tf.math.zeta(x + h, q)) - tf.reduce_sum(tf.math.zeta(x - h, q))) / (2 * h)
    np.testing.assert_allclose(float(tf.reduce_sum(dx)), float(fd), rtol=1e-7)
    mixed_xq, mixed_qx = outer.gradient(sum_dx, q), outer.gradient(sum_dq, x)
    np.testing.assert_allclose(float(tf.reduce_sum(mixed_xq)), float(tf.reduce_sum(mixed_qx)), rtol=1e-10)


@tf.custom_gradient
def _zeta_plain(x, q):  # the recipe's grad with tf.math.zeta in place of the recursive call
    def grad(dz):
        return dz * 2.0, dz * -x * tf.math.zeta(x + 1, q)

    return tf.math.zeta(x, q), grad


def test_zeta_forward_mode_around_a_tf_function_uses_grad():
    """#zeta-no-gradient-x-proof: the recipe gives its grad's d/dx there (5.278735), as does a grad that does not call
    itself; eagerly forward mode gives tf.math.zeta's 0."""
    zeta = recipe("71_zeta_every_order.py")["zeta"]
    x, q = tf.constant(3.0, tf.float64), tf.constant(0.5, tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        z = tf.function(zeta, autograph=False)(x, q)  # (autograph misreads exec-ed source)
    h = 1e-6
    want = float(tf.math.zeta(x + h, q) - tf.math.zeta(x - h, q)) / (2 * h)
    assert np.isclose(float(acc.jvp(z)), want, rtol=1e-7), (float(acc.jvp(z)), want, f"{PAGE}#zeta-no-gradient-x-proof")
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        z = tf.function(_zeta_plain)(x, q)
    assert float(acc.jvp(z)) == 2.0
    out = stdout_of("71_zeta_every_order.py").strip().splitlines()
    assert out[-2:] == [
        "forward mode, d/dx zeta(3, 0.5): -0.000000",
        "forward mode, d/dx tf.function(zeta)(3, 0.5): 5.278735",
    ], (out[-2:], f"update {PAGE}#zeta-no-gradient-x-proof (and .ru.md)")


def test_zeta_order_2_with_tapes_outside_a_tf_function_matches_eager():
    zeta = recipe("71_zeta_every_order.py")["zeta"]
    p = tf.constant([[3.0, 1.2, 10.0], [0.5, 2.0, 1.5]], tf.float64)
    where = f"71_zeta_every_order.py, {PAGE}#zeta-no-gradient-x-recipe"
    assert_order_2_with_tapes_outside_matches_eager(lambda p: zeta(p[0], p[1]), p, where)


def test_igamma_order_2_with_tapes_outside_a_tf_function_matches_eager():
    igamma = recipe("74_igamma_every_order.py")["igamma"]
    p = tf.constant([[2.0, 0.5, 10.0], [1.5, 0.3, 12.0]], tf.float64)
    where = f"74_igamma_every_order.py, {PAGE}#igamma-second-order-a-recipe"
    assert_order_2_with_tapes_outside_matches_eager(lambda p: igamma(p[0], p[1]), p, where)


def test_zeta_proof_and_alternatives():
    out = stdout_of("71_zeta_every_order.py")
    rows = blocks(out)[0]
    assert rows.pop("forward mode order 1").startswith("MISMATCH"), out
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/71_zeta_every_order.py: {rows}"
    assert "zeta_of: SavedModel order 1: error" in out and "forward mode, d/dx zeta(3, 0.5): -0.000000" in out, out
    out = stdout_of("70_zeta_no_gradient.py")
    assert "float32: zeta(3, 0.5) = 8.414397, d/dx None" in out and "float64: zeta(3, 0.5) = 8.414398, d/dx None" in out
    out = stdout_of("72_zeta_alternatives.py")
    assert "first 100,000 terms of -sum log(n+q)/(n+q)^x: -16.672715" in out, out
    assert "differences in grad: order 1 -24.929160, order 2 None" in out, (
        f"central differences of tf.math.zeta now have a second derivative: update {PAGE}#zeta-no-gradient-x-alternatives"
    )


# tf.math.igamma (#igamma-second-order-a)


def first_in_a(a, x):
    return tf.raw_ops.IgammaGradA(a=a, x=x)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_igamma_second_derivative_in_a_raises(dtype):
    a, x = tf.constant(2.0, dtype), tf.constant(1.5, dtype)
    with pytest.raises(LookupError, match="gradient registry has no entry for: IgammaGradA"):
        second_derivative(lambda a: tf.math.igamma(a, x), a)
        pytest.fail("IgammaGradA has a gradient now: " + FIXED.format(PAGE=PAGE, anchor="igamma-second-order-a"))


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_igamma_gradient_in_x_is_nan_at_a_1_x_0(dtype):
    a, x = tf.constant(1.0, dtype), tf.constant(0.0, dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        p = tf.math.igamma(a, x)
    g = float(tape.gradient(p, x))
    assert np.isnan(g), (
        f"d/dx igamma(1, 0) is {g} ({dtype.name}), no longer nan (PR#123580 reached a release): update "
        f"{PAGE}#igamma-second-order-a-why (say from which release) and .ru.md"
    )


IGAMMA_GRID = [(a, x) for a in (0.05, 0.5, 1.0, 2.0, 10.0, 60.0) for x in (1e-4, 0.3, 3.0, 30.0, 100.0)]


@pytest.mark.parametrize(("a", "x"), IGAMMA_GRID)
def test_igamma_d2a_matches_differences_of_igamma_grad_a(a, x):
    """#igamma-second-order-a-recipe: relative 1e-7 plus 1e-15 for 0.05 <= a <= 60, 1e-4 <= x <= 100."""
    ns = recipe("74_igamma_every_order.py")
    at, xt, h = tf.constant([a], tf.float64), tf.constant([x], tf.float64), 1e-5
    want = float((first_in_a(at + h, xt) - first_in_a(at - h, xt))[0]) / (2 * h)
    got = float(ns["igamma_d2a"](at, xt)[0])
    assert abs(got - want) <= 1e-7 * abs(want) + 1e-15, (a, x, got, want)
    hx = h * min(1.0, x)  # (a step below x: log x is steep near 0)
    mixed = float((first_in_a(at, xt + hx) - first_in_a(at, xt - hx))[0]) / (2 * hx)
    _, second = second_derivative(lambda a: ns["igamma"](a, xt), at)
    assert abs(float(second[0]) - want) <= 1e-7 * abs(want) + 1e-15
    with tf.GradientTape() as outer:
        outer.watch(xt)
        with tf.GradientTape() as inner:
            inner.watch(at)
            p = ns["igamma"](at, xt)
        da = inner.gradient(p, at)
    assert abs(float(outer.gradient(da, xt)[0]) - mixed) <= 1e-6 * abs(mixed) + 1e-12


def test_igamma_recipe_at_a_1_x_0_and_the_xlogy_trap():
    ns = recipe("74_igamma_every_order.py")
    a, x = tf.constant(1.0, tf.float64), tf.constant(0.0, tf.float64)
    first, second = second_derivative(lambda x: ns["igamma"](a, x), x)
    assert (float(first), float(second)) == (1.0, -1.0)
    # xlogy alone: its gradient in its first argument is 0 at a = 1, so d/da of the density would miss log x
    x = tf.constant(2.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.math.xlogy(a - 1, x)
    assert float(tape.gradient(y, a)) == 0.0, (
        f"xlogy's gradient at 0 is log(y) now: update {PAGE}#igamma-second-order-a-recipe"
    )


def test_igamma_proof_and_alternatives():
    out = stdout_of("74_igamma_every_order.py")
    rows = blocks(out)[0]
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/74_igamma_every_order.py: {rows}"
    assert "at a = 1, x = 0: d/dx 1.0, d2/dx2 -1.0" in out, out
    out = stdout_of("73_igamma_second_order.py")
    assert (
        "float64: d/dx igamma(1, 0) = nan (exact: 1)" in out
        and "reference d2/da2 (differences of d/da): 0.100589" in out
    )
    out = stdout_of("75_igamma_alternatives.py")
    assert "igammac, d2/da2: LookupError: gradient registry has no entry for: IgammaGradA" in out, out
    assert "differences in grad: d2/da2 0.100589\n  d3/da3: LookupError" in out, out


# tf.math.betainc (#betainc-no-gradient-a-b)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_betainc_gradients_in_a_and_b_are_none(dtype):
    a, b, x = (tf.constant(v, dtype) for v in (2.0, 3.0, 0.4))
    with tf.GradientTape() as tape:
        tape.watch([a, b, x])
        y = tf.math.betainc(a, b, x)
    da, db, dx = tape.gradient(y, [a, b, x])
    assert da is None and db is None, f"tf.math.betainc has gradients in a, b now ({da}, {db}): " + FIXED.format(
        PAGE=PAGE, anchor="betainc-no-gradient-a-b"
    )
    assert np.isclose(float(dx), 1.728, rtol=1e-5)


def test_betainc_forward_mode_in_a_is_silently_zero():
    a, b, x = (tf.constant(v, tf.float64) for v in (2.0, 3.0, 0.4))
    with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
        y = tf.math.betainc(a, b, x)
    assert float(acc.jvp(y)) == 0, (
        f"forward mode of tf.math.betainc in a changed: update {PAGE}#betainc-no-gradient-a-b-proof"
    )


BETAINC_GRID = [
    (a, b, x) for a in (0.1, 1.0, 3.0, 50.0) for b in (0.1, 0.5, 10.0, 50.0) for x in (1e-3, 0.3, 0.7, 0.95, 0.999)
]


@pytest.mark.parametrize(("a", "b", "x"), BETAINC_GRID)
def test_betainc_da_db_match_differences(a, b, x):
    """#betainc-no-gradient-a-b-recipe: relative 1e-6 plus 1e-9 for 0.1 <= a, b <= 50, 1e-3 <= x <= 0.999."""
    betainc_da_db = recipe("77_betainc_every_order.py")["betainc_da_db"]
    at, bt, xt = (tf.constant([v], tf.float64) for v in (a, b, x))
    da, db = (float(g[0]) for g in betainc_da_db(at, bt, xt))
    h = 1e-6
    want_a = float((tf.math.betainc(at + h, bt, xt) - tf.math.betainc(at - h, bt, xt))[0]) / (2 * h)
    want_b = float((tf.math.betainc(at, bt + h, xt) - tf.math.betainc(at, bt - h, xt))[0]) / (2 * h)
    assert abs(da - want_a) <= 1e-6 * abs(want_a) + 1e-9, (a, b, x, da, want_a)
    assert abs(db - want_b) <= 1e-6 * abs(want_b) + 1e-9, (a, b, x, db, want_b)


def test_betainc_recipe_second_order_in_a_matches_differences_of_its_first():
    ns = recipe("77_betainc_every_order.py")
    b, x = tf.constant(3.0, tf.float64), tf.constant(0.4, tf.float64)
    _, second = second_derivative(lambda a: ns["betainc"](a, b, x), tf.constant(2.0, tf.float64))
    h = 1e-5
    first = [float(ns["betainc_da_db"](tf.constant(2.0 + s, tf.float64), b, x)[0]) for s in (h, -h)]
    np.testing.assert_allclose(float(second), (first[0] - first[1]) / (2 * h), rtol=1e-7)


def test_betainc_proof_and_alternatives():
    out = stdout_of("77_betainc_every_order.py")
    rows = blocks(out)[0]
    assert rows.pop("forward mode order 1").startswith("MISMATCH"), out
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/77_betainc_every_order.py: {rows}"
    out = stdout_of("76_betainc_no_gradient.py")
    assert "float64: d/da None, d/db None, d/dx 1.728000" in out, out
    assert "reference (central differences): d/da -0.240869, d/db 0.156344" in out, out
    out = stdout_of("78_betainc_alternatives.py")
    assert "differences in grad: d/da -0.240869, d2/da2 None" in out, (
        f"central differences of betainc now have a second derivative in a: update {PAGE}#betainc-no-gradient-a-b-alternatives"
    )


# Every recipe: arguments converted to one dtype, as the built-in does in eager mode


DTYPE_CASES = [
    ("71_zeta_every_order.py", "zeta", tf.math.zeta, (3.0, [0.5, 2.0])),
    ("74_igamma_every_order.py", "igamma", tf.math.igamma, (2.0, [1.5, 3.0])),
    ("77_betainc_every_order.py", "betainc", tf.math.betainc, (2.0, 3.0, [0.4, 0.9])),
]


@pytest.mark.parametrize(("snippet", "name", "builtin", "args"), DTYPE_CASES)
def test_recipe_converts_a_python_float_to_the_dtype_of_the_tensor_argument(snippet, name, builtin, args):
    """#zeta-no-gradient-x-recipe: (Python float, float64 tensor) works in eager mode, in the built-in and the recipe;
    inside a tf.function the built-in raises TypeError for that mix, the recipe does not."""
    f = recipe(snippet)[name]
    args = (*args[:-1], tf.constant(args[-1], tf.float64))
    want = builtin(*args)
    got = f(*args)
    assert got.dtype == want.dtype == tf.float64
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    tensor = args[-1]
    with pytest.raises(TypeError, match="does not match type float32"):
        tf.function(lambda t: builtin(*args[:-1], t))(tensor)
        pytest.fail(f"the built-in {name} converts in a tf.function now: update {PAGE}#zeta-no-gradient-x-recipe")
    got = tf.function(lambda t: f(*args[:-1], t), autograph=False)(tensor)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    # two tensors of different dtypes still fail, in both (the recipe: ValueError from tf.convert_to_tensor)
    first32 = (tf.constant(args[0], tf.float32), *args[1:])
    with pytest.raises(tf.errors.InvalidArgumentError):
        builtin(*first32)
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype float64"):
        f(*first32)


# igamma at x = 0, forward mode around a tf.function


def igamma_second_derivatives(igamma, a, x):
    a, x = tf.constant(a, tf.float64), tf.constant(x, tf.float64)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([a, x])
        with tf.GradientTape() as inner:
            inner.watch([a, x])
            p = igamma(a, x)
        da, dx = inner.gradient(p, [a, x])
    return [float(v) for v in (da, dx, outer.gradient(da, a), outer.gradient(da, x), outer.gradient(dx, a))] + [
        float(outer.gradient(dx, x))
    ]


def test_igamma_recipe_at_x_0_second_derivatives_as_the_page_says():
    """#igamma-second-order-a-recipe: at x = 0 first derivatives right; at a = 1 d2/dx2 right, d2/da2 nan, the mixed
    ones -inf and a wrong 0.577216; at a = 2 the mixed ones and d2/dx2 (true 1) nan."""
    igamma = recipe("74_igamma_every_order.py")["igamma"]
    da, dx, daa, dax, dxa, dxx = igamma_second_derivatives(igamma, 1.0, 0.0)
    assert (da, dx, dxx) == (0.0, 1.0, -1.0)
    assert np.isnan(daa) and dax == -np.inf and np.isclose(dxa, 0.577216, atol=1e-6), (daa, dax, dxa)
    da, dx, daa, dax, dxa, dxx = igamma_second_derivatives(igamma, 2.0, 0.0)
    assert (da, dx) == (0.0, 0.0)
    assert np.isnan(dax) and np.isnan(dxa) and np.isnan(dxx), (dax, dxa, dxx)


def test_igamma_and_betainc_forward_mode_around_a_tf_function():
    """#igamma-second-order-a-proof: grad's IgammaGradA (-0.313489); #betainc-no-gradient-a-b-proof: right too."""
    igamma = recipe("74_igamma_every_order.py")["igamma"]
    a, x = tf.constant(2.0, tf.float64), tf.constant(1.5, tf.float64)
    with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
        p = tf.function(igamma, autograph=False)(a, x)
    want = float(tf.raw_ops.IgammaGradA(a=a, x=x))
    assert np.isclose(float(acc.jvp(p)), want, rtol=1e-12), (
        float(acc.jvp(p)),
        want,
        f"{PAGE}#igamma-second-order-a-proof",
    )
    betainc = recipe("77_betainc_every_order.py")["betainc"]
    a, b, x = (tf.constant(v, tf.float64) for v in (2.0, 3.0, 0.4))
    for f, want in [(betainc, 0.0), (tf.function(betainc, autograph=False), -0.240869)]:
        with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
            y = f(a, b, x)
        assert np.isclose(float(acc.jvp(y)), want, atol=1e-6), (f, float(acc.jvp(y)))
    out = stdout_of("74_igamma_every_order.py")
    assert out.strip().endswith("forward mode, d/da tf.function(igamma)(2, 1.5): -0.313489"), out
    out = stdout_of("77_betainc_every_order.py")
    assert "forward mode, d/da betainc(2, 3, 0.4): 0.000000" in out, out
    assert "forward mode, d/da tf.function(betainc)(2, 3, 0.4): -0.240869" in out, out


def test_igamma_differences_of_igamma_grad_a_are_right_to_about_1e_12():
    """#igamma-second-order-a-alternatives: central differences (h = 1e-5) of IgammaGradA against the series."""
    igamma_d2a = recipe("74_igamma_every_order.py")["igamma_d2a"]
    a, x, h = tf.constant([2.0], tf.float64), tf.constant([1.5], tf.float64), 1e-5
    fd = float((first_in_a(a + h, x) - first_in_a(a - h, x))[0]) / (2 * h)
    error = abs(fd - float(igamma_d2a(a, x)[0]))
    assert 1e-13 < error < 1e-11, error


# betainc at x = 0 and x = 1, large a or b, the alternative's cost


BETAINC_ENDS = [
    ((2.0, 3.0, 0.0), 0.0),
    ((1.0, 3.0, 0.0), 3.0),
    ((0.5, 0.5, 0.0), np.inf),
    ((2.0, 3.0, 1.0), 0.0),
    ((2.0, 1.0, 1.0), 2.0),
    ((3.0, 1.0, 1.0), 3.0),
]


@pytest.mark.parametrize(("point", "density"), BETAINC_ENDS)
def test_betainc_recipe_at_x_0_and_1(point, density):
    """#betainc-no-gradient-a-b-recipe: d/da = d/db = 0 (I is 0 or 1 for all a, b), d/dx the built-in's density."""
    betainc = recipe("77_betainc_every_order.py")["betainc"]
    p = tf.constant(point, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = betainc(p[0], p[1], p[2])
    got = tape.gradient(y, p).numpy()
    a, b, x = (tf.constant(v, tf.float64) for v in point)
    with tf.GradientTape() as tape:
        tape.watch(x)
        builtin = tf.math.betainc(a, b, x)
    assert got[0] == 0 and got[1] == 0, got
    assert np.isclose(got[2], density) and np.isclose(float(tape.gradient(builtin, x)), density), got


def test_betainc_recipe_a_batch_with_x_0_keeps_the_gradient_in_a():
    betainc = recipe("77_betainc_every_order.py")["betainc"]
    a, b = tf.constant(2.0, tf.float64), tf.constant(3.0, tf.float64)
    xs = tf.constant([0.0, 0.2, 0.5, 0.9, 1.0], tf.float64)
    grads = []
    for x in (xs, xs[1:-1]):
        with tf.GradientTape() as tape:
            tape.watch(a)
            loss = tf.reduce_sum(betainc(a, b, x))
        grads.append(float(tape.gradient(loss, a)))
    assert np.isfinite(grads[0]) and grads[0] == pytest.approx(grads[1], rel=1e-14), grads


@pytest.mark.parametrize(
    ("a", "b", "below", "low", "high"),
    [
        (1e4, 1e4, True, 0, 1e-10),  # large together: fine
        (500.0, 1.0, True, 1e-4, 1e-3),  # a >> b, just below the switch: 3.5e-4
        (2000.0, 1.0, True, 0.1, 0.2),  # 0.14
        (1.0, 2000.0, False, 0.1, 0.25),  # b >> a, just above the switch: 0.18
    ],
)
def test_betainc_da_with_one_shape_far_above_the_other(a, b, below, low, high):
    """#betainc-no-gradient-a-b-recipe: 2000 terms against 200,000 terms of the same branch, next to the switch."""
    ns = recipe("77_betainc_every_order.py")
    s = (a + 1) / (a + b + 2)
    x = s * (1 - 1e-9) if below else s * (1 + 1e-9)
    at, bt, xt = (tf.constant([v], tf.float64) for v in (a, b, x))
    got = float(ns["betainc_da_db"](at, bt, xt)[0][0])
    if below:
        want = float(ns["_series"](at, bt, xt, 200_000)[0][0])
    else:
        want = -float(ns["_series"](bt, at, 1 - xt, 200_000)[1][0])
    error = abs(got / want - 1)
    assert low <= error < high, (a, b, got, want, error)


def test_betainc_differences_alternative_makes_five_calls_in_grad():
    """#betainc-no-gradient-a-b-alternatives: four calls for a and b, one under a tape for x."""
    source = (ROOT / "snippets/cookbook/78_betainc_alternatives.py").read_text()
    grad = source.split("def grad(dy):")[1].split("return tf.math.betainc(a, b, x), grad")[0]
    assert grad.count("tf.math.betainc(") == 5, grad
