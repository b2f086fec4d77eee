"""The recipes of docs/cookbook/numerical-instability.md after reduce_std (logsumexp, atan2, sinc), checked on
TensorFlow itself: the built-in gradient fails where the page says (a test that fails here names the section to
rewrite), and the recipe's custom gradient, executed from its snippet's `recipe` section, matches its reference.
The printed proofs are checked from the snippets' real output."""

from __future__ import annotations

import keras
import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import (
    DIR,
    assert_order_2_with_tapes_outside_matches_eager,
    blocks,
    gradient,
    recipe,
    second_derivative,
    stdout_of,
)

PAGE = "docs/cookbook/numerical-instability.md"
NEG_INF = -np.inf
DTYPES = [tf.float32, tf.float64]


def fixed(anchor: str) -> str:
    return f"TensorFlow fixed it: rewrite {PAGE}#{anchor} (and .ru.md, say from which release) and its snippets"


# logsumexp (#logsumexp-all-neginf)


@pytest.mark.parametrize("dtype", DTYPES)
def test_reduce_logsumexp_gradient_is_nan_where_every_entry_is_minus_inf(dtype):
    x = tf.constant([NEG_INF, NEG_INF], dtype)
    assert tf.reduce_logsumexp(x).numpy() == NEG_INF
    g = gradient(tf.reduce_logsumexp, x).numpy()
    assert np.isnan(g).all(), f"tf.reduce_logsumexp's gradient at [-inf, -inf] ({dtype.name}) is {g}: " + fixed(
        "logsumexp-all-neginf"
    )


@pytest.mark.parametrize("dtype", DTYPES)
def test_safe_logsumexp_matches_the_builtin_and_is_zero_on_an_empty_row(dtype):
    safe = recipe("12_safe_logsumexp.py")["safe_logsumexp"]
    x = tf.constant([[0.5, -1.0, NEG_INF], [NEG_INF, NEG_INF, NEG_INF]], dtype)
    np.testing.assert_array_equal(safe(x).numpy(), tf.reduce_logsumexp(x, axis=-1).numpy())
    g = gradient(safe, x).numpy()
    np.testing.assert_allclose(g[0], gradient(lambda x: tf.reduce_logsumexp(x[0]), x).numpy()[0], rtol=1e-6)
    assert (g[1] == 0).all(), f"safe_logsumexp's gradient on the all -inf row ({dtype.name}) is {g[1]}, not 0"
    # jax-ml/jax#6811: logsumexp([-inf, -inf + a]) does not change with a
    a = tf.constant(1.0, dtype)
    assert gradient(lambda a: safe(tf.stack([tf.constant(NEG_INF, dtype), NEG_INF + a])), a).numpy() == 0


def test_safe_logsumexp_proof():
    out = stdout_of("12_safe_logsumexp.py")
    rows = blocks(out)[0]
    assert rows.pop("forward mode order 1") == "MISMATCH", (
        f"forward mode through tf.reduce_logsumexp on an all -inf row is no longer nan: update {PAGE}"
        f"#logsumexp-all-neginf-proof (and .ru.md):\n{out}"
    )
    assert set(rows.values()) == {"OK"}, f"{DIR}/12_safe_logsumexp.py: {rows}"
    assert out.strip().endswith("forward mode around a tf.function: 1.0000"), (
        f"{DIR}/12_safe_logsumexp.py: forward mode around a tf.function no longer gives 1 (it uses grad): update "
        f"{PAGE}#logsumexp-all-neginf-proof (and .ru.md):\n{out}"
    )


def test_safe_logsumexp_order_2_with_tapes_outside_a_tf_function_matches_eager():
    safe = recipe("12_safe_logsumexp.py")["safe_logsumexp"]
    log_mask = np.array([[0.0, 0.0, -np.inf], [-np.inf, -np.inf, -np.inf]])
    x = tf.constant([[0.5, -1.0, 2.0], [1.0, 0.0, 3.0]], tf.float64)
    where = f"{DIR}/12_safe_logsumexp.py, {PAGE}#logsumexp-all-neginf-recipe"
    assert_order_2_with_tapes_outside_matches_eager(lambda a: safe(safe(a + log_mask)), x, where)
    assert_order_2_with_tapes_outside_matches_eager(lambda a: safe(a) ** 2, x, where)  # a second derivative not 0


def test_safe_logsumexp_forward_mode_around_a_tf_function_uses_grad():
    """An accumulator around a tf.function that calls the recipe, eager or itself in a tf.function, uses grad (whose
    call is on tf.identity(x)): shifting a row by 1 shifts its value by 1, and grad's 0 on the all -inf row."""
    safe = recipe("12_safe_logsumexp.py")["safe_logsumexp"]
    x = tf.constant([[0.5, -1.0, NEG_INF], [NEG_INF, NEG_INF, NEG_INF]], tf.float64)
    inner = tf.function(safe, autograph=False)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = inner(x)
    eager = acc.jvp(y).numpy()

    @tf.function
    def nested(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = inner(x)
        return acc.jvp(y)

    for name, got in [("eager", eager), ("in a tf.function", nested(x).numpy())]:
        np.testing.assert_allclose(got, [1.0, 0.0], err_msg=f"accumulator {name}: {PAGE}#logsumexp-all-neginf-proof")


def test_forward_mode_around_a_tf_function_raises_for_any_grad_that_calls_a_custom_gradient_function():
    """docs/checking-gradients.md#what-each-context-does: a grad that calls a custom-gradient function, its own or
    another, on the watched input. A minimal e(x) = exp(x) whose grad returns dy * e(x) raises, and so does one whose
    grad calls another; a grad without such a call works, and so do both calls on tf.identity(x) (the recipes)."""

    @tf.custom_gradient
    def recursive(x):
        return tf.exp(x), lambda dy: dy * recursive(x)

    @tf.custom_gradient
    def other(x):
        return tf.exp(x), lambda dy: dy * tf.exp(x)

    @tf.custom_gradient
    def calls_other(x):
        return tf.exp(x), lambda dy: dy * other(x)

    @tf.custom_gradient
    def plain(x):
        return tf.exp(x), lambda dy: dy * tf.exp(x)

    @tf.custom_gradient
    def recursive_on_copy(x):
        return tf.exp(x), lambda dy: dy * recursive_on_copy(tf.identity(x))

    @tf.custom_gradient
    def calls_other_on_copy(x):
        return tf.exp(x), lambda dy: dy * other(tf.identity(x))

    x = tf.constant(1.0)
    for f in (recursive, calls_other):
        with pytest.raises(TypeError), tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)):
            tf.function(f)(x)
    for f in (plain, recursive_on_copy, calls_other_on_copy):
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
            y = tf.function(f)(x)
        assert abs(float(acc.jvp(y)) - np.e) < 1e-6, (f.__name__, float(acc.jvp(y)))


def test_logsumexp_alternatives():
    out = stdout_of("13_logsumexp_alternatives.py")
    for name, row in [("finite log 0", "[0. 0. 0.]"), ("double where", "[0. 0. 0.]"), ("where after", "[nan nan nan]")]:
        assert (
            f"{name}: rows" in out and f"{row}, forward mode 1.0000" in out.split(f"{name}: rows")[1].split("\n")[1]
        ), (
            f"{DIR}/13_logsumexp_alternatives.py: {name} changed; update {PAGE}#logsumexp-all-neginf-alternatives:\n{out}"
        )


# atan2 (#atan2-origin-nan)


@pytest.mark.parametrize("dtype", DTYPES)
def test_atan2_gradient_is_nan_at_the_origin(dtype):
    y, x = tf.constant(0.0, dtype), tf.constant(0.0, dtype)
    with tf.GradientTape() as tape:
        tape.watch([y, x])
        angle = tf.math.atan2(y, x)
    g = [t.numpy() for t in tape.gradient(angle, [y, x])]
    assert angle.numpy() == 0 and np.isnan(g).all(), f"tf.math.atan2's gradient at (0, 0) is {g}: " + fixed(
        "atan2-origin-nan"
    )


@pytest.mark.parametrize("y", [1e-20, 1e-30])
def test_atan2_gradient_overflows_where_the_square_underflows_in_float32(y):
    # y^2 = 1e-40 is a float32 subnormal; the CPU kernels flush it to 0 (below 1.2e-38, the smallest normal number)
    assert tf.square(tf.constant(1e-20)).numpy() == 0, (
        f"tf.square no longer flushes subnormals: update {PAGE}#atan2-origin-nan-why"
    )
    y, x = tf.constant(y), tf.constant(0.0)
    with tf.GradientTape() as tape:
        tape.watch([y, x])
        angle = tf.math.atan2(y, x)
    dy, dx = (t.numpy() for t in tape.gradient(angle, [y, x]))
    assert np.isnan(dy) and dx == NEG_INF, (
        f"tf.math.atan2's gradient at ({y.numpy()}, 0) in float32 is ({dy}, {dx}): " + fixed("atan2-origin-nan")
    )
    with tf.autodiff.ForwardAccumulator(y, tf.constant(1.0)) as acc:
        safe = recipe("15_safe_atan2.py")["safe_atan2"](y, x)
    assert not np.isfinite(acc.jvp(safe).numpy()), (
        f"forward mode of safe_atan2 at ({y.numpy()}, 0): update {PAGE}#atan2-origin-nan-proof"
    )


ATAN2_NEAR_ORIGIN = [  # (y, x), dtype, what the built-in gradient is there
    ((1e-19, 2e-19), tf.float32, "finite, wrong"),  # only y^2 is flushed: 25 % off
    ((1e-30, 0.0), tf.float32, "not finite"),
    ((1e-155, 0.0), tf.float64, "not finite"),  # |r| < 1.5e-154
    ((1e-160, 1e-160), tf.float64, "not finite"),
    ((1e-3, 0.0), tf.float16, "not finite"),
    ((1e-3, 1e-3), tf.float16, "not finite"),
]


def atan2_gradient(f, y0, x0, dtype):
    y, x = tf.constant([y0], dtype), tf.constant([x0], dtype)
    with tf.GradientTape() as tape:
        tape.watch([y, x])
        angle = f(y, x)
    return np.array([t.numpy()[0] for t in tape.gradient(angle, [y, x])], np.float64)


@pytest.mark.parametrize(("point", "dtype", "builtin"), ATAN2_NEAR_ORIGIN, ids=lambda v: str(v))
def test_atan2_near_the_origin_builtin_wrong_recipe_exact_in_each_dtype(point, dtype, builtin):
    """Eager, a tape: the flush is per square; float64 fails too, float16 by overflow; the recipe is exact (the why)."""
    y0, x0 = point
    scale = max(abs(y0), abs(x0))  # float64 without underflow: x / r^2 = (x / s) / (s (r / s)^2)
    y, x = y0 / scale, x0 / scale
    exact = np.array([x, -y]) / (scale * (x * x + y * y))
    got = atan2_gradient(tf.math.atan2, y0, x0, dtype)
    if builtin == "not finite":
        assert not np.isfinite(got).all(), (
            f"tf.math.atan2 at {point} ({dtype.name}): {got}; update {PAGE}#atan2-origin-nan-why"
        )
    else:
        assert np.isfinite(got).all() and abs(got[0] / exact[0] - 1.25) < 0.01, (  # 25 % off
            f"tf.math.atan2 at {point} ({dtype.name}): {got}, exact {exact}; update {PAGE}#atan2-origin-nan-why"
        )
    safe = atan2_gradient(recipe("15_safe_atan2.py")["safe_atan2"], y0, x0, dtype)
    rtol = 1e-3 if dtype == tf.float16 else 1e-6
    np.testing.assert_allclose(safe, exact, rtol=rtol, err_msg=f"safe_atan2 at {point} ({dtype.name})")


def test_atan2_in_float16_overflows_instead_of_flushing():
    """Eager, a tape, float16: the squares are kept as subnormals; 1/(x^2 + y^2) overflows 65504 below |r| ~ 3.9e-3,
    and the recipe's own division below |r| ~ 1.5e-5 (the page's why)."""
    assert tf.square(tf.constant(5e-3, tf.float16)).numpy() > 0  # 2.5e-5, a float16 subnormal, not flushed
    assert np.isfinite(atan2_gradient(tf.math.atan2, 4e-3, 0.0, tf.float16)).all()
    assert not np.isfinite(atan2_gradient(tf.math.atan2, 3.8e-3, 0.0, tf.float16)).all()
    safe = recipe("15_safe_atan2.py")["safe_atan2"]
    np.testing.assert_allclose(atan2_gradient(safe, 3e-5, 0.0, tf.float16), [0.0, -1 / 3e-5], rtol=1e-3)
    r16 = float(np.float16(1.6e-5))  # the float16 input, 1.5974e-5
    np.testing.assert_allclose(atan2_gradient(safe, 1.6e-5, 0.0, tf.float16), [0.0, -1 / r16], rtol=1e-3)
    dy, dx = atan2_gradient(safe, 1.5e-5, 0.0, tf.float16)  # the exact -1/1.5e-5 = -66667 is past 65504
    assert np.isnan(dy) and dx == -np.inf, (
        f"safe_atan2 at (1.5e-5, 0) in float16: {dy}, {dx}, not nan, -inf; update {PAGE}#atan2-origin-nan-why"
    )
    d16 = float(np.float16(1.1e-5 / 2**0.5))  # on the diagonal, |r| ~ 1.1e-5: the exact 1 / (2 d) stays below 65504
    np.testing.assert_allclose(atan2_gradient(safe, d16, d16, tf.float16)[0], 1 / (2 * d16), rtol=2e-3)


@pytest.mark.parametrize(("point", "dtype"), [((1e-40, 0.0), tf.float32), ((0.0, 1e-310), tf.float64)])
def test_atan2_a_subnormal_input_is_read_as_zero(point, dtype):
    """Eager, a tape: a subnormal input is the origin, for the built-in gradient (nan) and the recipe (0)."""
    assert np.isnan(atan2_gradient(tf.math.atan2, *point, dtype)).all()
    assert (atan2_gradient(recipe("15_safe_atan2.py")["safe_atan2"], *point, dtype) == 0).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_safe_atan2_is_zero_at_the_origin_and_exact_elsewhere(dtype):
    safe = recipe("15_safe_atan2.py")["safe_atan2"]
    ys, xs = [0.0, 1e-30, 0.0, 1.0, -2.0, 3e-30], [0.0, 0.0, 1e-30, 1.0, 0.5, -4e-30]
    y, x = tf.constant(ys, dtype), tf.constant(xs, dtype)
    with tf.GradientTape() as tape:
        tape.watch([y, x])
        angle = safe(y, x)
    dy, dx = (t.numpy() for t in tape.gradient(angle, [y, x]))
    np.testing.assert_array_equal(angle.numpy(), tf.math.atan2(y, x).numpy())
    r2 = np.array(xs) ** 2 + np.array(ys) ** 2
    want_dy = np.divide(xs, r2, out=np.zeros(6), where=r2 > 0)
    want_dx = np.divide(np.negative(ys), r2, out=np.zeros(6), where=r2 > 0)
    np.testing.assert_allclose(dy, want_dy, rtol=1e-6)
    np.testing.assert_allclose(dx, want_dx, rtol=1e-6)


def test_safe_atan2_proof_and_the_double_where():
    out = stdout_of("15_safe_atan2.py")
    smooth, origin = blocks(out)[:2]
    assert set(smooth.values()) == {"OK"}, f"{DIR}/15_safe_atan2.py away from the origin: {smooth}"
    assert origin.pop("forward mode order 1") == "MISMATCH", (
        f"forward mode of tf.math.atan2 at (0, 0) is no longer nan: update {PAGE}#atan2-origin-nan-proof:\n{out}"
    )
    assert set(origin.values()) == {"OK"}, f"{DIR}/15_safe_atan2.py at the origin: {origin}"
    assert "(1e-30, 0): (0, -1e+30), exact (0, -1e+30)" in out, out
    out = stdout_of("16_atan2_double_where.py")
    assert "(0, 0): angle 0.0000, gradient (0, 0), forward mode 0" in out, out
    assert "(1e-30, 0): angle 1.5708, gradient (nan, -inf), forward mode -inf" in out, (
        f"{DIR}/16_atan2_double_where.py next to the origin changed; update {PAGE}#atan2-origin-nan-alternatives:\n{out}"
    )


# sinc (#sinc-zero-nan)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["keras.ops.sinc", "tf.experimental.numpy.sinc"])
def test_sinc_gradient_is_nan_at_zero(name, dtype):
    sinc = keras.ops.sinc if name == "keras.ops.sinc" else tf.experimental.numpy.sinc
    x = tf.constant([0.0], dtype)
    g = gradient(sinc, x).numpy()
    assert sinc(x).numpy()[0] == 1 and np.isnan(g).all(), f"{name}'s gradient at 0 ({dtype.name}) is {g}: " + fixed(
        "sinc-zero-nan"
    )


def test_builtin_sinc_gradient_loses_digits_near_zero_in_float32():
    g = gradient(keras.ops.sinc, tf.constant([1e-3])).numpy()[0]
    exact = -(np.pi**2) * 1e-3 / 3 * (1 - (np.pi * 1e-3) ** 2 / 10)
    assert abs(g / exact - 1) > 0.01, f"keras.ops.sinc's float32 gradient at 1e-3 is {g}, now close to {exact}: " + (
        f"update {PAGE}#sinc-zero-nan-problem"
    )


@pytest.mark.parametrize("dtype", DTYPES)
def test_safe_sinc_matches_the_derivatives(dtype):
    safe = recipe("18_safe_sinc.py")["safe_sinc"]
    xs = np.array([0.0, 1e-3, 0.1, 0.2, 2.5])
    x = tf.constant(xs, dtype)
    np.testing.assert_allclose(safe(x).numpy(), np.sinc(xs), rtol=1e-6)
    t = np.pi * xs
    with np.errstate(invalid="ignore", divide="ignore"):
        closed = np.where(t == 0, 0.0, np.pi * (t * np.cos(t) - np.sin(t)) / t**2)
    k = np.arange(1, 11)[:, None]  # the series to t^19: exact in float64 where |t| < 0.5
    factorial = np.array([np.prod(np.arange(1.0, 2 * n + 2)) for n in range(1, 11)])[:, None]
    series = np.pi * np.sum((-1.0) ** k * 2 * k * t ** (2 * k - 1) / factorial, axis=0)
    want = np.where(np.abs(t) < 0.5, series, closed)
    slope, second = second_derivative(safe, x)
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == tf.float32 else {"rtol": 1e-12, "atol": 1e-15}
    np.testing.assert_allclose(slope.numpy(), want, **tol)
    assert np.isclose(second.numpy()[0], -(np.pi**2) / 3, rtol=1e-6), second.numpy()


def test_safe_sinc_second_derivative_is_finite_for_large_x_in_float32():
    # the series branch is not taken there; unguarded, its t^11 overflows and tf.where's 0 * inf is nan
    safe = recipe("18_safe_sinc.py")["safe_sinc"]
    xs = np.array([3e4, 1e5])
    slope, second = second_derivative(safe, tf.constant(xs, tf.float32))
    builtin_slope, builtin_second = second_derivative(keras.ops.sinc, tf.constant(xs, tf.float32))
    assert np.isfinite(second.numpy()).all(), f"safe_sinc's float32 second derivative at {xs} is {second.numpy()}"
    np.testing.assert_allclose(slope.numpy(), builtin_slope.numpy(), rtol=1e-5, atol=1e-12)
    np.testing.assert_allclose(second.numpy(), builtin_second.numpy(), rtol=1e-4, atol=1e-12)


def test_safe_sinc_series_needs_its_six_terms():
    # the page: six terms, an error below 1e-14 where |t| < 0.5; five terms are about 1e-12 off at |t| = 0.5
    slope = recipe("18_safe_sinc.py")["sin_t_over_t_slope"]
    t = np.linspace(-0.4999, 0.4999, 2001)
    k = np.arange(1, 13)[:, None]
    factorial = np.array([np.prod(np.arange(1.0, 2 * n + 2)) for n in range(1, 13)])[:, None]
    exact = np.sum((-1.0) ** k * 2 * k * t ** (2 * k - 1) / factorial, axis=0)
    error = np.max(np.abs(slope(tf.constant(t, tf.float64)).numpy() - exact))
    assert error < 1e-14, f"{DIR}/18_safe_sinc.py: the series is {error:.2g} off; update {PAGE}#sinc-zero-nan-recipe"


def test_safe_sinc_forward_mode_is_the_forward_pass_in_float32():
    safe = recipe("18_safe_sinc.py")["safe_sinc"]
    x = tf.constant([0.0, 1e-3])
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as inner:
            y = safe(x)
        jvp = inner.jvp(y)
    exact = -(np.pi**2) * 1e-3 / 3 * (1 - (np.pi * 1e-3) ** 2 / 10)
    assert abs(jvp.numpy()[1] / exact - 1) > 0.01, (
        f"forward mode of safe_sinc at 1e-3 (float32) is now exact: {PAGE}#sinc-zero-nan-proof"
    )
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = safe(x)
        slope = tape.gradient(y, x)
    assert np.isclose(acc.jvp(slope).numpy()[0], -(np.pi**2) / 3, rtol=1e-6), (
        f"forward over a tape: {PAGE}#sinc-zero-nan-proof"
    )
    assert outer.jvp(jvp).numpy()[0] == 0, (
        f"forward over forward of safe_sinc at 0 is not 0: {PAGE}#sinc-zero-nan-proof"
    )


@pytest.mark.parametrize(
    ("snippet", "name", "args", "tangents", "want", "dtype"),
    [
        ("15_safe_atan2.py", "safe_atan2", ([0.0, 1.0], [0.0, 1.0]), ([1.0, 1.0], [1.0, 1.0]), [0.0, 0.0], tf.float64),
        ("18_safe_sinc.py", "safe_sinc", ([0.0, 1e-3],), ([1.0, 1.0],), [0.0, -0.00328986813], tf.float32),
    ],
    ids=["atan2 at the origin, float64", "sinc at 0 and 1e-3, float32"],
)
def test_forward_mode_around_a_tf_function_uses_the_recipes_grad(snippet, name, args, tangents, want, dtype):
    """An eager accumulator around a tf.function that calls the recipe (#what-each-context-does): grad's result."""
    f = tf.function(recipe(snippet)[name])
    primals = [tf.constant(a, dtype) for a in args]
    with tf.autodiff.ForwardAccumulator(primals, [tf.constant(t, dtype) for t in tangents]) as acc:
        y = f(*primals)
    np.testing.assert_allclose(acc.jvp(y).numpy(), want, rtol=1e-6, atol=1e-12, err_msg=f"{name}: update {PAGE}")


def test_finite_log_zero_overflows_when_two_are_added():
    # tf.float32.min + tf.float32.min is -inf again: the nan is back (CTC, HMM recursions)
    a = tf.constant([[0.5, -1.0], [1.0, 0.0]])
    log_mask = tf.maximum(tf.constant([[0.0, 0.0], [NEG_INF, NEG_INF]]), tf.float32.min)
    log_other = tf.maximum(tf.constant([[0.0, NEG_INF], [NEG_INF, NEG_INF]]), tf.float32.min)
    with tf.GradientTape() as tape:
        tape.watch(a)
        z = a + log_mask + log_other
        total = tf.reduce_logsumexp(tf.reduce_logsumexp(z, axis=-1))
    g = tape.gradient(total, a).numpy()
    assert z.numpy()[1, 0] == NEG_INF and np.isnan(g[1]).all(), (
        f"two finite log 0s no longer overflow ({z.numpy()}, {g}): update {PAGE}#logsumexp-all-neginf-alternatives"
    )


def test_safe_sinc_proof_and_alternatives():
    out = stdout_of("18_safe_sinc.py")
    rows = blocks(out)[0]
    assert set(rows.values()) == {"OK"}, f"{DIR}/18_safe_sinc.py: {rows}"
    assert "second derivative at 0: -3.2899" in out, out
    out = stdout_of("19_sinc_alternatives.py")
    assert "double where float32: gradient [0, -0.0034515], second derivative at 0: 0\n" in out, (
        f"{DIR}/19_sinc_alternatives.py: the double where changed; update {PAGE}#sinc-zero-nan-alternatives:\n{out}"
    )
    assert "series float32: gradient [0, -0.0032899], second derivative at 0: -3.2899" in out, out


# log1pexp (#log1pexp)

LOG1PEXP_THRESHOLDS = [  # dtype, first x where the plain gradient is 0, first where it is nan (the page's why)
    (tf.float32, "87.33655", "88.72284"),
    (tf.float64, "708.3964185322642", "709.7827128933841"),
    (tf.float16, None, "11.09"),  # subnormals kept: nan first
]


def plain_log1pexp(x):
    return tf.math.log(1 + tf.exp(x))


@pytest.mark.parametrize(("dtype", "zero", "nan"), LOG1PEXP_THRESHOLDS, ids=lambda v: getattr(v, "name", str(v)))
def test_plain_log1pexp_gradient_is_zero_then_nan_at_the_printed_thresholds(dtype, zero, nan):
    """Eager, a tape: the gradient is 1 just below each threshold, 0 (or nan) from it (the page's problem and why)."""
    np_dtype = dtype.as_numpy_dtype

    def slope(x):
        return float(gradient(plain_log1pexp, tf.constant(x, dtype)))

    for first, bad in ((zero, lambda g: g == 0), (nan, np.isnan)):
        if first is None:
            continue
        x = np_dtype(first)
        below = np.nextafter(x, np_dtype(0))
        assert bad(slope(x)) and not bad(slope(below)) and (first == nan or abs(slope(below) - 1) < 1e-2), (
            f"log(1 + exp(x)) in {dtype.name}: gradient {slope(below)} at {below}, {slope(x)} at {x}: "
            + fixed("log1pexp-why")
        )
    out = stdout_of("36_log1pexp_overflow.py")
    assert f"  {dtype.name}: " + (f"0 from x = {zero}, " if zero else "") + f"nan from x = {nan}\n" in out, out


def test_docstring_log1pexp_value_inf_and_cancellation_below_minus_16_6():
    ns = recipe("37_stable_log1pexp.py")

    @tf.custom_gradient
    def docstring(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

    assert np.isinf(docstring(tf.constant(89.0)).numpy()) and float(gradient(docstring, tf.constant(89.0))) == 1.0
    assert float(gradient(docstring, tf.constant(-16.5))) > 0, "the docstring's gradient at -16.5 is already 0"
    assert float(gradient(docstring, tf.constant(-16.7))) == 0, f"{PAGE}#log1pexp-why: 1 + e^x no longer rounds to 1"
    x = tf.constant([-20.0, -16.7, 0.0, 88.0, 89.0, 100.0])
    np.testing.assert_allclose(gradient(ns["log1pexp"], x).numpy(), tf.sigmoid(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(ns["log1pexp"](x).numpy(), np.logaddexp(0, x.numpy().astype(np.float64)), rtol=1e-6)


def test_log1pexp_order_2_with_a_tf_function_between_the_tapes_matches_eager():
    """grad calls _sigmoid, a custom-gradient function, on tf.identity(x): on x itself it would raise there."""
    log1pexp = recipe("37_stable_log1pexp.py")["log1pexp"]
    x = tf.constant([-30.0, -1.0, 0.0, 2.0, 40.0], tf.float64)
    assert_order_2_with_tapes_outside_matches_eager(log1pexp, x, f"{PAGE}#log1pexp-recipe")


@pytest.mark.parametrize("dtype", [tf.float16, *DTYPES])
def test_log1pexp_recipe_is_finite_and_right_in_each_dtype(dtype):
    log1pexp = recipe("37_stable_log1pexp.py")["log1pexp"]
    xs = {tf.float16: [-20.0, 0.0, 11.5, 60000.0], tf.float32: [-100.0, 0.0, 88.0, 1e30]}.get(
        dtype, [-800.0, 0.0, 709.0, 1e300]
    )
    x = tf.constant(xs, dtype)
    rtol = 1e-3 if dtype == tf.float16 else 1e-6
    atol = 1e-4 if dtype == tf.float16 else 1e-7  # float16: sigmoid(11.5) rounds to 1, so s (1 - s) to 0
    tiny = float(np.finfo(dtype.as_numpy_dtype).tiny)  # below it a value is flushed (or not representable)
    np.testing.assert_allclose(
        log1pexp(x).numpy().astype(np.float64), np.logaddexp(0, x.numpy().astype(np.float64)), rtol=rtol, atol=tiny
    )
    slope, second = second_derivative(log1pexp, x)
    s = tf.sigmoid(tf.cast(x, tf.float64)).numpy()
    np.testing.assert_allclose(slope.numpy().astype(np.float64), s, rtol=rtol, atol=atol)
    np.testing.assert_allclose(second.numpy().astype(np.float64), s * (1 - s), rtol=rtol, atol=atol)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = log1pexp(x)
    np.testing.assert_allclose(acc.jvp(y).numpy().astype(np.float64), s, rtol=rtol, atol=atol)


@pytest.mark.parametrize(("dtype", "first_zero"), [(tf.float32, 17.0), (tf.float64, 37.0)], ids=["float32", "float64"])
def test_sigmoid_own_second_derivative_is_zero_once_sigmoid_rounds_to_1_and_the_recipe_is_right(dtype, first_zero):
    """The page (#log1pexp-recipe): tf.sigmoid's gradient s (1 - s) is 0 from x = 17 (float32) and 37 (float64);
    the recipe's order 2 is sigmoid(x) sigmoid(-x) there, and order 3 is right too."""
    log1pexp = recipe("37_stable_log1pexp.py")["log1pexp"]
    below = first_zero - 1
    assert float(gradient(tf.sigmoid, tf.constant(below, dtype))) > 0
    for x in (first_zero, first_zero + 1, 60.0):
        assert float(gradient(tf.sigmoid, tf.constant(x, dtype))) == 0, (
            f"tf.sigmoid's gradient at {x} ({dtype.name}) is not 0 now: " + fixed("log1pexp-recipe")
        )
    xs = np.array([-30.0, -17.0, 0.0, 1.0, below, first_zero, 30.0, 60.0])
    x = tf.constant(xs, dtype)
    with tf.GradientTape() as third:
        third.watch(x)
        _, second = second_derivative(log1pexp, x)
    s, t = 1 / (1 + np.exp(-xs)), 1 / (1 + np.exp(xs))  # sigmoid(x), sigmoid(-x) in float64
    np.testing.assert_allclose(second.numpy().astype(np.float64), s * t, rtol=1e-5)
    np.testing.assert_allclose(
        third.gradient(second, x).numpy().astype(np.float64), s * t * (t - s), rtol=1e-4, atol=1e-7
    )


def test_log1pexp_proof_and_alternatives():
    out = stdout_of("37_stable_log1pexp.py")
    assert set(blocks(out)[0].values()) == {"OK"}, f"{DIR}/37_stable_log1pexp.py:\n{out}"
    for line in (
        "  float32 x = 17: log1pexp 4.14e-08, tf.sigmoid 0, exact 4.14e-08",
        "  float32 x = 30: log1pexp 9.358e-14, tf.sigmoid 0, exact 9.358e-14",
        "  float64 x = 37: log1pexp 8.533e-17, tf.sigmoid 0, exact 8.533e-17",
    ):
        assert line in out, f"{DIR}/37_stable_log1pexp.py changed; update {PAGE}#log1pexp-recipe:\n{out}"
    out = stdout_of("38_log1pexp_alternatives.py")
    lines = out.splitlines()
    after = {
        lines[i].split(":")[0].strip(): lines[i + 1].strip() for i in range(len(lines) - 1) if ": value" in lines[i]
    }
    assert after["softplus"] == "gradient [0.  0.5 1.  1. ], forward mode [0.  0.5 1.  1. ]", out
    assert after["where_after"].startswith("gradient [0.  0.5 nan nan]"), (
        f"{DIR}/38_log1pexp_alternatives.py: one tf.where no longer gives nan: update {PAGE}#log1pexp-alternatives"
    )
    assert after["double_where"] == after["softplus"], out
    assert after["max_abs"] == "gradient [0. 1. 1. 1.], forward mode [0. 1. 1. 1.]", (
        f"tf.maximum / tf.abs at 0 changed: update {PAGE}#log1pexp-alternatives:\n{out}"
    )
    assert after["max_abs_sigmoid"] == "gradient [0.  0.5 1.  1. ], forward mode [0. 1. 1. 1.]", out


# safe_norm (#safe-norm)

NORM_CASES = [  # dtype, entries, what tf.norm gives: (value, gradient)
    (tf.float32, [0.0, 0.0, 0.0], "nan"),
    (tf.float32, [3e-20, 4e-20, 0.0], "tiny"),
    (tf.float32, [3e20, 4e20, 0.0], "huge"),
    (tf.float64, [3e-155, 4e-155, 0.0], "tiny"),  # below about 1e-154
    (tf.float64, [3e154, 4e154, 0.0], "huge"),  # above about 1e154
    (tf.float16, [300.0, 400.0, 0.0], "huge"),
]


@pytest.mark.parametrize("norm", ["tf.norm", "tf.math.reduce_euclidean_norm", "keras.ops.norm"])
@pytest.mark.parametrize(("dtype", "values", "kind"), NORM_CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_builtin_norms_fail_at_zero_tiny_and_huge_entries(norm, dtype, values, kind):
    f = {"tf.norm": tf.norm, "tf.math.reduce_euclidean_norm": tf.math.reduce_euclidean_norm}.get(norm, keras.ops.norm)
    x = tf.constant(values, dtype)
    value, g = f(x).numpy(), gradient(f, x).numpy()
    broken = {
        "nan": value == 0 and np.isnan(g).all(),
        "tiny": value == 0 and np.isinf(g[:2]).all() and np.isnan(g[2]),
        "huge": np.isinf(value) and (g == 0).all(),
    }[kind]
    assert broken, f"{norm} at {values} ({dtype.name}): value {value}, gradient {g}: " + fixed("safe-norm")


@pytest.mark.parametrize(("dtype", "values", "kind"), NORM_CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_safe_norm_is_exact_where_the_builtin_fails(dtype, values, kind):
    safe = recipe("47_safe_euclidean.py")["safe_norm"]
    x = tf.constant(values, dtype)
    exact = np.hypot(*x.numpy().astype(np.float64)[:2])
    want = np.zeros(3) if exact == 0 else np.array([*x.numpy().astype(np.float64)[:2] / exact, 0.0])
    rtol = 1e-3 if dtype == tf.float16 else 1e-6
    np.testing.assert_allclose(float(safe(x)), exact, rtol=rtol, err_msg=f"safe_norm at {values} ({dtype.name})")
    np.testing.assert_allclose(gradient(safe, x).numpy().astype(np.float64), want, rtol=rtol, atol=1e-7)


def test_safe_norm_batch_second_order_and_a_subnormal_entry():
    safe = recipe("47_safe_euclidean.py")["safe_norm"]
    x = tf.constant([[1.0, -2.0, 2.0], [3e-200, 4e-200, 0.0]], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        g = gradient(lambda x: safe(x)[0], x)
    hessian_row = outer.jacobian(g, x).numpy()[0, :, 0]  # d/dx of the first row's gradient, first row
    v = np.array([1.0, -2.0, 2.0])
    np.testing.assert_allclose(hessian_row, (np.eye(3) - np.outer(v, v) / 9) / 3, atol=1e-12)
    np.testing.assert_allclose(gradient(safe, x).numpy()[1], [0.6, 0.8, 0.0], rtol=1e-12)
    sub = tf.constant([1e-40, 0.0, 0.0])  # float32 subnormal: read as 0, by tf.norm (nan) and the recipe (0)
    assert np.isnan(gradient(tf.norm, sub).numpy()).all() and (gradient(safe, sub).numpy() == 0).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_safe_norm_second_order_is_nan_under_jit_compile_only_in_float32_at_tiny_entries(dtype):
    """The page (#safe-norm-recipe, #safe-norm-proof): order 2 along [1, 2, 3] is exact in eager mode and in a
    tf.function at every scale; under jit_compile=True float32 gives nan at entries of 4e-20, not at 4e-19."""
    safe = recipe("47_safe_euclidean.py")["safe_norm"]
    direction = [1.0, 2.0, 3.0]

    def second_along(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            g = tf.reduce_sum(gradient(safe, x) * tf.constant(direction, x.dtype))
        return outer.gradient(g, x)

    jit = tf.function(second_along, jit_compile=True)
    for scale in (1.0, 1e-19, 1e-20, 1e-30):
        v = np.array([3.0, 4.0, 0.0]) * scale
        n = np.linalg.norm(v)
        want = (np.eye(3) - np.outer(v, v) / n**2) @ direction / n
        x = tf.constant(v, dtype)
        for name, f in (("eager", second_along), ("tf.function", tf.function(second_along))):
            np.testing.assert_allclose(f(x).numpy(), want, rtol=1e-5, err_msg=f"{name} at {scale:g} ({dtype.name})")
        got = jit(x).numpy()
        if dtype == tf.float32 and scale <= 1e-20:
            assert np.isnan(got).all(), (
                f"safe_norm's order 2 under jit_compile at {scale:g} (float32) is {got}, not nan: "
                + fixed("safe-norm-recipe")
            )
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"jit_compile at {scale:g} ({dtype.name})")


def test_safe_norm_proof_and_alternatives():
    out = stdout_of("47_safe_euclidean.py")
    smooth, zero = blocks(out)[:2]
    assert set(smooth.values()) == {"OK"} and set(zero.values()) == {"OK"}, (
        f"{DIR}/47_safe_euclidean.py: {smooth}, {zero}"
    )
    assert "  [3e-20, 4e-20, 0.0]: value 5e-20, gradient [0.6 0.8 0. ]" in out, out
    assert "  [3e-20, 4e-20, 0.0]: eager ['-6.4e+18', '4.8e+18', '6e+19'], jit ['nan', 'nan', 'nan']" in out, out
    assert "  [3e-19, 4e-19, 0.0]: eager ['-6.4e+17', '4.8e+17', '6e+18'], jit ['-6.4e+17', '4.8e+17', '6e+18']" in out
    out = stdout_of("48_euclidean_alternatives.py")
    for name, gradient_line in [
        ("epsilon", "gradient [0 0 0], [3e-14 4e-14 0], [0 0 0]"),
        ("double_where", "gradient [0 0 0], [0 0 0], [0 0 0]"),
        ("squared", "gradient [0 0 0], [6e-20 8e-20 0], [6e+20 8e+20 0]"),
        ("scaled", "gradient [0 0 0], [0.6 0.8 0], [0.6 0.8 0]"),
    ]:
        assert f"  {name}: value" in out and gradient_line in out.split(f"  {name}: value")[1].split("\n")[1], (
            f"{DIR}/48_euclidean_alternatives.py: {name} changed; update {PAGE}#safe-norm-alternatives:\n{out}"
        )
