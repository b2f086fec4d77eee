"""The recipes of docs/cookbook/special-points.md, checked on TensorFlow itself.

Each recipe tells two halves of a story, and a TensorFlow release that changes either fails here: the built-in
gradient is silently wrong at the special point (the test names the section to rewrite when TensorFlow fixes it),
and the recipe's custom gradient matches its reference there. The recipe code is the `recipe` section of the
snippet the page shows, executed here; the proofs are read from the snippets' real output.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import (
    DIR,
    ROOT,
    SECTION,
    assert_order_2_with_tapes_outside_matches_eager,
    blocks,
    central_difference,
    gradient,
    recipe,
    second_derivative,
    stdout_of,
)

PAGE = "docs/cookbook/special-points.md"
FIXED = "TensorFlow fixed it: rewrite {PAGE}#{anchor} (and .ru.md; say from which release) and its snippets"


# tf.math.cumprod at a zero (#cumprod-zero)

CUMPROD = {  # the input, the gradient of sum(cumprod(x)) (the reference), the built-in one in 2.21
    (0.0, 2.0, 3.0): ([9, 0, 0], [0, 0, 0]),
    (2.0, 3.0, 0.0): ([4, 2, 6], [4, 2, 0]),
    (2.0, 0.0, 0.0, 3.0): ([1, 2, 0, 0], [1, 0, 0, 0]),
}


def cumsum_of_prod(x):
    return np.cumprod(x).sum()


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("values", list(CUMPROD))
def test_cumprod_gradient_is_wrong_at_a_zero(values, dtype):
    want, builtin = CUMPROD[values]
    np.testing.assert_allclose(central_difference(cumsum_of_prod, values), want, atol=1e-6)
    g = gradient(lambda x: tf.reduce_sum(tf.math.cumprod(x)), tf.constant(values, dtype)).numpy()
    assert (g == builtin).all(), f"tf.math.cumprod's gradient at {values} ({dtype.name}) is {g}, not {builtin}: " + (
        FIXED.format(PAGE=PAGE, anchor="cumprod-zero")
    )


def test_cumprod_forward_mode_is_wrong_at_a_zero_too():
    x = tf.constant([2.0, 3.0, 0.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.0, 0.0, 1.0], tf.float64)) as acc:
        y = tf.math.cumprod(x)
    assert (acc.jvp(y).numpy() == 0).all(), (
        "tf.math.cumprod's forward-mode derivative in x_2 at [2, 3, 0] is no longer 0: update "
        f"{PAGE}#cumprod-zero-proof (the forward mode row) and #cumprod-zero-alternatives"
    )


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_safe_cumprod_matches_differences_at_zeros_orders_1_and_2(dtype):
    cumprod = recipe("21_safe_cumprod.py")["cumprod"]
    for values, (want, _) in CUMPROD.items():
        x = tf.constant(values, dtype)
        np.testing.assert_array_equal(cumprod(x).numpy(), tf.math.cumprod(x).numpy())
        np.testing.assert_allclose(gradient(lambda x: tf.reduce_sum(cumprod(x)), x).numpy(), want, rtol=1e-6)
    x = tf.constant([[0.0, 2.0, 3.0, 4.0], [2.0, 0.0, 0.0, 3.0]], tf.float64)  # a batch: the last axis
    np.testing.assert_allclose(
        gradient(lambda x: tf.reduce_sum(cumprod(x)), x).numpy(),
        [central_difference(cumsum_of_prod, row) for row in x.numpy()],
        atol=1e-8,
    )
    # order 2: d/dx_j of the gradient of sum(cumprod) at [0, 2, 3]; the Hessian by differences of the exact gradient
    x = tf.constant([0.0, 2.0, 3.0], tf.float64)
    _, hessian_row_sum = second_derivative(lambda x: tf.reduce_sum(cumprod(x)), x)
    grad_of = lambda v: np.array([1 + v[1] + v[1] * v[2], v[0] + v[0] * v[2], v[0] * v[1]])  # noqa: E731
    want = central_difference(lambda v: grad_of(v).sum(), [0.0, 2.0, 3.0])
    np.testing.assert_allclose(hessian_row_sum.numpy(), want, atol=1e-8)


def test_cumprod_proof_and_alternatives():
    out = stdout_of("21_safe_cumprod.py")
    rows = blocks(out)[0]
    assert rows.pop("forward mode order 1").startswith("MISMATCH"), (
        f"{DIR}/21_safe_cumprod.py: forward mode now matches at zeros; update {PAGE}#cumprod-zero-proof:\n{out}"
    )
    assert set(rows.values()) == {"OK"}, f"{DIR}/21_safe_cumprod.py: {rows}"
    reloaded = out.split("in a fresh process:")[1].strip()
    assert reloaded.startswith("cumprod: SavedModel order 1:") and reloaded.endswith("OK"), reloaded
    out = stdout_of("22_cumprod_alternatives.py")
    for line in (
        "tf.math.cumprod: value [2.0, 6.0, 0.0], gradient [4. 2. 0.], forward mode d/dx_2 [0. 0. 0.]",
        "doubling: value [2.0, 6.0, 0.0], gradient [4. 2. 6.], forward mode d/dx_2 [0. 0. 6.]",
        "x + eps: value [2.000001, 6.000005, 6e-06], gradient [4. 2. 6.], forward mode d/dx_2 [0. 0. 6.]",
        "where(x == 0): value [2.0, 6.0, 6e-06], gradient [4. 2. 0.], forward mode d/dx_2 [0. 0. 0.]",
    ):
        assert line in out, f"{DIR}/22_cumprod_alternatives.py changed; update {PAGE}#cumprod-zero-alternatives:\n{out}"


# tf.math.xlogy and xlog1py at x = 0 (#xlogy-zero-x)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("op", [tf.math.xlogy, tf.math.xlog1py])
def test_xlogy_gradient_in_x_is_zero_at_x_zero(op, dtype):
    x, y = tf.constant(0.0, dtype), tf.constant(2.0, dtype)
    g = gradient(lambda x: op(x, y), x).numpy()
    assert g == 0, f"{op.__name__}'s gradient in x at x = 0, y = 2 ({dtype.name}) is {g}, not 0: " + FIXED.format(
        PAGE=PAGE, anchor="xlogy-zero-x"
    )


def test_xlogy_second_derivative_in_x_and_y_is_zero_at_x_zero():
    x, y = tf.constant(0.0, tf.float64), tf.constant(2.0, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(y)
        dx = gradient(lambda x: tf.math.xlogy(x, y), x)
    g = outer.gradient(dx, y)
    assert g is not None and g.numpy() == 0, (
        f"d2/dxdy of tf.math.xlogy at x = 0, y = 2 is {g}, not 0 (tensorflow#127240): "
        + FIXED.format(PAGE=PAGE, anchor="xlogy-zero-x")
    )
    with tf.GradientTape() as outer:  # the other order, through the gradient of tf.math.xdivy
        outer.watch(x)
        dy = gradient(lambda y: tf.math.xlogy(x, y), y)
    g = outer.gradient(dy, x)
    assert g is not None and g.numpy() == 0, (
        f"d2/dydx of tf.math.xlogy at x = 0, y = 2 is {g}, not 0 (tensorflow#127294): "
        + FIXED.format(PAGE=PAGE, anchor="xlogy-zero-x-why")
    )


def test_safe_xlogy_at_x_zero_orders_1_and_2():
    ns = recipe("24_safe_xlogy.py")
    for f, log, one in ((ns["xlogy"], np.log, 0.0), (ns["xlog1py"], np.log1p, 1.0)):
        x, y = tf.constant([0.0, 0.0], tf.float64), tf.constant([2.0, 0.5], tf.float64)
        with tf.GradientTape(persistent=True) as outer:
            outer.watch([x, y])
            with tf.GradientTape() as inner:
                inner.watch([x, y])
                z = f(x, y)
            dx, dy = inner.gradient(z, [x, y])
        np.testing.assert_allclose(dx.numpy(), log(y.numpy()), rtol=1e-12)
        np.testing.assert_array_equal(dy.numpy(), [0.0, 0.0])
        np.testing.assert_allclose(outer.gradient(dx, y).numpy(), 1 / (one + y.numpy()), rtol=1e-12)
        np.testing.assert_array_equal(z.numpy(), [0.0, 0.0])
    # where x = y = 0 (x = 0, y = -1 for xlog1py): the value 0, d/dy 0 as TensorFlow has it
    x = tf.constant([0.0], tf.float64)
    for f, y0 in ((ns["xlogy"], 0.0), (ns["xlog1py"], -1.0)):
        y = tf.constant([y0], tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(y)
            z = f(x, y)
        assert z.numpy()[0] == 0 and tape.gradient(z, y).numpy()[0] == 0


def test_xlogy_proof_and_alternatives():
    out = stdout_of("24_safe_xlogy.py")
    for rows in blocks(out):
        assert rows.pop("forward mode order 1").startswith("MISMATCH"), (
            f"{DIR}/24_safe_xlogy.py: forward mode now matches at x = 0; update {PAGE}#xlogy-zero-x-proof:\n{out}"
        )
        assert set(rows.values()) == {"OK"}, f"{DIR}/24_safe_xlogy.py: {rows}"
    out = stdout_of("25_xlogy_alternatives.py")
    for line in (
        "recipe at x = 0, y = [2, 0]: value [0. 0.], d/dx [0.6931   -inf], d/dy [0. 0.]",
        "x * log(y) at x = 0, y = [2, 0]: value [ 0. nan], d/dx [0.6931   -inf], d/dy [ 0. nan]",
        "tf.math.xlogy: d/dp p log p at p = [0, 0.5]: [0.     0.3069]",
        "recipe: d/dp p log p at p = [0, 0.5]: [  -inf 0.3069]",
    ):
        assert line in out, f"{DIR}/25_xlogy_alternatives.py changed; update {PAGE}#xlogy-zero-x-alternatives:\n{out}"


# tf.math.bessel_i1 at 0 (#bessel-i1-zero)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_bessel_i1_gradient_is_one_at_zero(dtype):
    g = gradient(tf.math.bessel_i1, tf.constant([0.0], dtype)).numpy()
    assert g[0] == 1.0, f"tf.math.bessel_i1's gradient at 0 ({dtype.name}) is {g}, not 1.0: " + FIXED.format(
        PAGE=PAGE, anchor="bessel-i1-zero"
    )


def test_bessel_i1_second_derivative_is_nan_at_zero_and_i1e_route_too():
    x = tf.constant([0.0], tf.float64)
    for f in (tf.math.bessel_i1, lambda x: tf.exp(tf.abs(x)) * tf.math.bessel_i1e(x)):
        first, second_ = second_derivative(f, x)
        assert np.isnan(second_.numpy()[0]), (
            f"the second derivative at 0 is {second_.numpy()}, no longer nan: update {PAGE}#bessel-i1-zero-alternatives"
        )
    assert first.numpy()[0] == 0.5, f"exp(|x|) * bessel_i1e(x) has the first derivative {first.numpy()} at 0"


def test_bessel_i1_has_no_xla_kernel():
    with pytest.raises(tf.errors.InvalidArgumentError, match="BesselI1"):
        tf.function(tf.math.bessel_i1, jit_compile=True)(tf.constant([0.0, 1.0], tf.float64))


def test_safe_bessel_i1_orders_1_and_2():
    bessel_i1 = recipe("27_safe_bessel_i1.py")["bessel_i1"]
    for dtype in (tf.float32, tf.float64):
        x = tf.constant([0.0, 5e-5, 1.0, -2.0], dtype)
        np.testing.assert_array_equal(bessel_i1(x).numpy(), tf.math.bessel_i1(x).numpy())
        first, second_ = second_derivative(bessel_i1, x)
        i1 = lambda v: tf.math.bessel_i1(tf.constant(v, tf.float64)).numpy()  # noqa: E731
        h, v = 1e-4, x.numpy().astype(np.float64)
        np.testing.assert_allclose(first.numpy(), (i1(v + h) - i1(v - h)) / (2 * h), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(second_.numpy(), (i1(v + h) - 2 * i1(v) + i1(v - h)) / h**2, atol=1e-5)


def test_bessel_i1_proof_and_alternatives():
    out = stdout_of("27_safe_bessel_i1.py")
    rows = blocks(out)[0]
    assert rows.pop("jit_compile order 1").startswith("MISMATCH InvalidArgumentError"), (
        f"{DIR}/27_safe_bessel_i1.py: bessel_i1 now compiles with XLA; update {PAGE}#bessel-i1-zero-proof:\n{out}"
    )
    assert rows.pop("forward mode order 1").startswith("MISMATCH"), out
    assert set(rows.values()) == {"OK"}, f"{DIR}/27_safe_bessel_i1.py: {rows}"
    out = stdout_of("28_bessel_i1_alternatives.py")
    assert "i1_from_i1e: value [0.     0.5652], first [0.5    0.7009], second [   nan 0.4294]" in out, out
    assert "i1_from_i1e, first, jit_compile: [0.5    0.7009]" in out, out


# the fixes of the review of issue 23 (reverse, exclusive, masked entries, float32 near 0, near-0 built-ins)


@pytest.mark.parametrize(
    ("values", "kwargs", "want", "builtin"),
    [
        ((0.0, 2.0, 3.0, 4.0), {"reverse": True}, [24, 12, 12, 10], [0, 12, 12, 10]),
        ((2.0, 3.0, 4.0, 0.0), {"reverse": True}, [0, 0, 0, 41], [0, 0, 0, 0]),
        ((0.0, 2.0, 3.0, 4.0), {"exclusive": True}, [9, 0, 0, 0], [0, 0, 0, 0]),
    ],
)
def test_cumprod_reverse_and_exclusive_wrong_too_and_the_recipe_wrapped(values, kwargs, want, builtin):
    cumprod = recipe("21_safe_cumprod.py")["cumprod"]
    x = tf.constant(values, tf.float64)
    g = gradient(lambda v: tf.reduce_sum(tf.math.cumprod(v, **kwargs)), x).numpy()
    assert (g == builtin).all(), f"tf.math.cumprod(..., {kwargs}) gradient at {values} is {g}, not {builtin}: " + (
        FIXED.format(PAGE=PAGE, anchor="cumprod-zero-recipe")
    )
    if kwargs.get("reverse"):  # the page: tf.reverse on both sides
        wrapped = lambda v: tf.reverse(cumprod(tf.reverse(v, [-1])), [-1])  # noqa: E731
    else:  # the page: shift the input by one, a 1 in front
        wrapped = lambda v: cumprod(tf.concat([tf.ones_like(v[..., :1]), v[..., :-1]], -1))  # noqa: E731
    np.testing.assert_array_equal(wrapped(x).numpy(), tf.math.cumprod(x, **kwargs).numpy())
    np.testing.assert_allclose(gradient(lambda v: tf.reduce_sum(wrapped(v)), x).numpy(), want, rtol=1e-12)


def test_safe_xlogy_masked_zero_and_negative_y():
    ns = recipe("24_safe_xlogy.py")
    m = tf.constant([0.0, 1.0], tf.float64)
    for f, y0 in ((ns["xlogy"], 0.0), (ns["xlog1py"], -1.0)):
        x, y = tf.constant([0.0, 0.5], tf.float64), tf.constant([y0, 0.5], tf.float64)
        dx = gradient(lambda v, f=f, y=y: tf.reduce_sum(m * f(v, y)), x).numpy()  # noqa: B023
        assert dx[0] == 0 and np.isfinite(dx[1]), f"{DIR}/24_safe_xlogy.py: masked entry at x = 0: d/dx {dx}"
        dx = gradient(lambda v, f=f, y=y: tf.reduce_sum(f(v, y)), x).numpy()  # noqa: B023
        assert dx[0] == -np.inf, f"{DIR}/24_safe_xlogy.py: unmasked x = y = 0: d/dx {dx}, not -inf"
    # the recipe is for y >= 0: at x = 0, y < 0 it gives nan where tf.math.xlogy gives 0
    x, y = tf.constant([0.0], tf.float64), tf.constant([-1.0], tf.float64)
    assert np.isnan(gradient(lambda v: ns["xlogy"](v, y), x).numpy()[0])
    assert gradient(lambda v: tf.math.xlogy(v, y), x).numpy()[0] == 0
    out = stdout_of("25_xlogy_alternatives.py")
    for line in (
        "tf.math.xlogy, mask [0, 1], x = y = [0, 0.5]: d/dx [ 0.     -0.6931], order 2 of the masked entry "
        "[0.0, 0.0, 0.0, 0.0]",
        "recipe, mask [0, 1], x = y = [0, 0.5]: d/dx [ 0.     -0.6931], order 2 of the masked entry [0.0, 0.0, 0.0, 0.0]",
        "recipe, x of shape [2], scalar y, a tape: d/dy of shape (2,)",
        "recipe, x of shape [2], scalar y, tf.gradients: ValueError: Incompatible shapes between op input and "
        "calculated input gradient",
    ):
        assert line in out, f"{DIR}/25_xlogy_alternatives.py changed; update {PAGE}#xlogy-zero-x-recipe:\n{out}"


def test_safe_xlogy_masked_zero_order_2_is_zero_and_the_mixed_derivative_stays(dtype=tf.float64):
    """Eager, nested tapes: the masked x = y = 0 entry's Hessian is 0 (as tf.math.xlogy's); d2/dxdy at (0, 2) 0.5."""
    for f, y0 in ((recipe("24_safe_xlogy.py")["xlogy"], 0.0), (recipe("24_safe_xlogy.py")["xlog1py"], -1.0)):
        v = tf.constant([[0.0, 0.5, 0.0], [y0, 0.5, 2.0]], dtype)
        m = tf.constant([0.0, 1.0, 1.0], dtype)
        with tf.GradientTape() as outer:
            outer.watch(v)
            with tf.GradientTape() as inner:
                inner.watch(v)
                z = tf.reduce_sum(m * f(v[0], v[1]))
            g = inner.gradient(z, v)
        h = outer.jacobian(g, v).numpy()
        masked = h[:, 0, :, 0]
        assert (masked == 0).all(), f"{DIR}/24_safe_xlogy.py, {f.__name__}: the masked entry's Hessian {masked}"
        want = 1 / (2.0 if y0 == 0 else 3.0)
        assert abs(h[0, 2, 1, 2] - want) < 1e-12, f"{f.__name__}: d2/dxdy at x = 0 is {h[0, 2, 1, 2]}, not {want}"


@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
def test_safe_xlogy_mixed_derivative_in_a_mask_is_log_y_at_an_ordinary_point(name):
    """Eager, nested tapes, at m = 0, x = 1, y = 2: d2/(dm dx) of m * f(x, y) is log y (log1p y), as the built-in's.
    A grad that put log(1) wherever dz = 0 (not only where y is at its singular point) gave 0 here."""
    f = recipe("24_safe_xlogy.py")[name]
    builtin = getattr(tf.math, name)
    for g, label in ((f, "recipe"), (builtin, "built-in")):
        m, x, y = (tf.constant([v], tf.float64) for v in (0.0, 1.0, 2.0))
        with tf.GradientTape() as outer:
            outer.watch(m)
            with tf.GradientTape() as inner:
                inner.watch(x)
                z = tf.reduce_sum(m * g(x, y))
            dx = inner.gradient(z, x)
        mixed = outer.gradient(dx, m).numpy()[0]
        want = np.log(2.0) if name == "xlogy" else np.log1p(2.0)
        assert abs(mixed - want) < 1e-12, f"{DIR}/24_safe_xlogy.py, {label} {name}: d2/(dm dx) {mixed}, not {want}"


def test_safe_xlogy_in_a_legacy_graph_with_tf_gradients():
    """A tf.Graph (TF1 style), tf.gradients: == on tensors is identity there; the recipe compares with tf.equal."""
    ns = recipe("24_safe_xlogy.py")
    for f, y0 in ((ns["xlogy"], 0.0), (ns["xlog1py"], -1.0)):
        with tf.Graph().as_default():
            x, y = tf.constant([0.0, 0.5, 0.0], tf.float64), tf.constant([y0, 0.5, 2.0], tf.float64)
            assert (x == 0) is False, (
                f"== on a tensor in a tf.Graph is now elementwise; update {PAGE}#xlogy-zero-x-recipe"
            )
            grads = tf.gradients(tf.reduce_sum(f(x, y)), [x, y])
            dx, dy = tf.compat.v1.Session().run(grads)
        assert dy[0] == 0 and dx[0] == -np.inf, f"{f.__name__}, tf.Graph + tf.gradients at the zero: {dx}, {dy}"
        assert abs(dx[2] - (np.log(2.0) if y0 == 0 else np.log(3.0))) < 1e-12, f"{f.__name__}: {dx}"


def test_safe_xlogy_scalar_y_raises_only_outside_a_tape():
    """A tape: d/dy of x's shape, no error; tf.gradients (in a tf.function): ValueError (Incompatible shapes)."""
    xlogy = recipe("24_safe_xlogy.py")["xlogy"]
    x, y = tf.constant([0.0, 1.0], tf.float64), tf.constant(2.0, tf.float64)
    assert gradient(lambda y: xlogy(x, y), y).shape == (2,)
    with pytest.raises(ValueError, match="Incompatible shapes"):
        tf.function(lambda x, y: tf.gradients(tf.reduce_sum(xlogy(x, y)), [x, y]))(x, y)


SWITCH = "(1e-2 if x.dtype == tf.float64 else 0.15)"


def bessel_i1_with_switch(switch):
    """The recipe's bessel_i1 with another float32 switch (None: the page's)."""
    source = (ROOT / DIR / "27_safe_bessel_i1.py").read_text(encoding="utf-8")
    assert SWITCH in source, f"{DIR}/27_safe_bessel_i1.py: the dtype-dependent switch changed; update this test"
    ns = {"tf": tf, "np": np}
    body = SECTION.search(source if switch is None else source.replace(SWITCH, switch))[1]
    exec(compile(body, f"27_safe_bessel_i1.py (switch {switch})", "exec"), ns)  # noqa: S102
    return ns["bessel_i1"]


def bessel_i1_second_relative_error(f, lo, hi, dtype=tf.float32):
    x = np.linspace(lo, hi, 3000).astype(dtype.as_numpy_dtype)
    _, d2 = second_derivative(f, tf.constant(x))
    v = x.astype(np.float64)
    true = 3 * v / 8 + 5 * v**3 / 96 + 7 * v**5 / 3072 + 9 * v**7 / 2949120  # I1''(x), its series
    return np.max(np.abs(d2.numpy() - true) / true)


def test_safe_bessel_i1_float32_second_derivative_near_the_switch():
    """Eager, nested tapes, float32: the residual the page states above each switch (0.15, 3e-2, 1e-4)."""
    page = bessel_i1_with_switch(None)
    below = bessel_i1_second_relative_error(page, 1e-5, 0.1499)
    above = bessel_i1_second_relative_error(page, 0.1501, 0.3)
    assert below < 2e-6, (
        f"float32, below the switch 0.15: relative error {below:.2g}; update {PAGE}#bessel-i1-zero-recipe"
    )
    assert 1e-5 < above < 1e-4, f"float32, above 0.15: relative error {above:.2g}, not ~6e-5; update {PAGE}"
    old = bessel_i1_second_relative_error(
        bessel_i1_with_switch("(1e-2 if x.dtype == tf.float64 else 3e-2)"), 0.03, 0.06
    )
    assert 1e-3 < old < 2e-3, f"float32, above a switch of 3e-2: relative error {old:.2g}, not ~1.4e-3; update {PAGE}"
    low = bessel_i1_second_relative_error(bessel_i1_with_switch("1e-4"), 1.1e-4, 0.03)
    assert low > 1, f"float32, above a switch of 1e-4: relative error {low:.2g}, not above 1; update {PAGE}"


def test_safe_bessel_i1_float64_second_derivative_around_the_switch():
    """Eager, nested tapes, float64: the switch 1e-2 leaves the second derivative right to ~1e-10 on both sides."""
    error = bessel_i1_second_relative_error(bessel_i1_with_switch(None), 1e-7, 5e-2, tf.float64)
    assert error < 1e-10, (
        f"float64: relative error {error:.2g} of the second derivative; update {PAGE}#bessel-i1-zero-recipe"
    )


def test_bessel_i1_builtin_wrong_near_zero_subnormal_and_overflow():
    # the second derivative is wrong near 0, not only nan at 0 (the page: "nan at 0 and wrong near it")
    _, d2 = second_derivative(tf.math.bessel_i1, tf.constant([-1e-10], tf.float64))
    assert abs(d2.numpy()[0]) > 1e-7, (
        f"d2 of tf.math.bessel_i1 at -1e-10 is {d2.numpy()}: update {PAGE}#bessel-i1-zero-why"
    )
    # a subnormal x: the first derivative is 1, as at 0; where I1 overflows it is nan
    for dtype, tiny, big in ((tf.float64, 1e-310, 710.0), (tf.float32, 1e-40, 88.73)):
        g = gradient(tf.math.bessel_i1, tf.constant([tiny, 1e-10, big], dtype)).numpy()
        assert g[0] == 1.0 and abs(g[1] - 0.5) < 1e-6 and np.isnan(g[2]), (
            f"{dtype.name}: {g}; update {PAGE}#bessel-i1-zero"
        )
    # a normal x whose I1 (about x / 2) is subnormal: 1.0 as at 0; from twice the smallest normal number on: 0.5
    for dtype, normal, twice, last in (
        (tf.float64, 4.4e-308, 4.46e-308, 709.5),
        (tf.float32, 2.3e-38, 2.36e-38, 88.72),
    ):
        assert normal > np.finfo(dtype.as_numpy_dtype).tiny
        g = gradient(tf.math.bessel_i1, tf.constant([normal, twice, last], dtype)).numpy()
        assert g[0] == 1.0 and abs(g[1] - 0.5) < 1e-6 and np.isfinite(g[2]), (
            f"{dtype.name}: {g}; update {PAGE}#bessel-i1-zero"
        )


@pytest.mark.parametrize(
    ("name", "args", "tangents", "want"),
    [
        ("21_safe_cumprod.py:cumprod", ([0.0, 2.0, 3.0],), ([1.0, 0.0, 0.0],), [1.0, 2.0, 6.0]),
        ("24_safe_xlogy.py:xlogy", ([0.0], [2.0]), ([1.0], [0.0]), [np.log(2.0)]),
        ("27_safe_bessel_i1.py:bessel_i1", ([0.0],), ([1.0],), [0.5]),
    ],
)
def test_forward_mode_around_a_tf_function_uses_the_recipes_grad(name, args, tangents, want):
    """An eager accumulator around a tf.function that calls the recipe (the page's top): right at the point."""
    snippet, function = name.split(":")
    f = tf.function(recipe(snippet)[function])
    primals = [tf.constant(a, tf.float64) for a in args]
    with tf.autodiff.ForwardAccumulator(primals, [tf.constant(t, tf.float64) for t in tangents]) as acc:
        y = f(*primals)
    got = acc.jvp(y).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"{name}: update {PAGE}#special-points")


# logm and sqrtm from tf.linalg.eigh at repeated eigenvalues (#eigh-matrix-function)

EIGH = "88_eigh_matrix_function.py"
W = np.linspace(-1, 1, 9).reshape(3, 3)  # the pages' loss: sum(W * f(A))
Q, _ = np.linalg.qr(np.reshape(np.linspace(-1.0, 1.5, 9) ** 3, [3, 3]))  # the snippets' rotation
FUNCTIONS = {  # name: (f, f' for the recipe, the divided difference in float64 without cancellation)
    "log": (tf.math.log, tf.math.reciprocal, lambda a, b: np.where(a == b, 1 / a, np.log1p((a - b) / b) / (a - b))),
    "sqrt": (tf.sqrt, lambda x: 0.5 / tf.sqrt(x), lambda a, b: 1 / (np.sqrt(a) + np.sqrt(b))),
}


def exact_gradient(name, a):
    """d sum(W * f(A)) / dA for f(A) = f((A + A^T) / 2), Daleckii-Krein in float64 with a stable divided difference."""
    a = np.asarray(a, np.float64)
    lam, v = np.linalg.eigh((a + a.T) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = FUNCTIONS[name][2](lam[:, None], lam[None, :])
    return v @ (g * (v.T @ ((W + W.T) / 2) @ v)) @ v.T


def from_eigh(f):
    def matrix_function(a):
        lam, v = tf.linalg.eigh((a + tf.transpose(a)) / 2)
        return v @ tf.linalg.diag(f(lam)) @ tf.transpose(v)

    return matrix_function


def weighted_gradient(fn, a):
    return gradient(lambda a: tf.reduce_sum(tf.constant(W, a.dtype) * fn(a)), a).numpy().astype(np.float64)


def rotated(*eigenvalues, dtype=np.float64):
    return (Q @ np.diag(eigenvalues) @ Q.T).astype(dtype)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_eigh_matrix_function_gradient_drops_the_off_diagonal_at_2i(name, dtype):
    f = FUNCTIONS[name][0]
    numpy_f = {"log": np.log, "sqrt": np.sqrt}[name]

    def value(flat):  # sum(W * f(A)) in NumPy, for central differences
        lam, v = np.linalg.eigh((flat.reshape(3, 3) + flat.reshape(3, 3).T) / 2)
        return np.sum(W * (v @ np.diag(numpy_f(lam)) @ v.T))

    want = central_difference(value, (2 * np.eye(3)).ravel()).reshape(3, 3)
    np.testing.assert_allclose(want[0], [-0.5, -0.25, 0] if name == "log" else [-0.3536, -0.1768, 0], atol=1e-4)
    g = weighted_gradient(from_eigh(f), tf.constant(2 * np.eye(3), dtype))
    off = ~np.eye(3, dtype=bool)
    assert (g[off] == 0).all() and np.allclose(np.diag(g), np.diag(want), atol=1e-6), (
        f"the eigh-based {name}m's gradient at 2I ({dtype.name}) is {g}, not zeros off the diagonal: "
        + FIXED.format(PAGE=PAGE, anchor="eigh-matrix-function")
    )


def test_eigh_matrix_function_gradient_near_a_repeated_eigenvalue():
    """The problem's numbers: wrong at a rotated repeated eigenvalue, half-right at 1e-10 in float64 (the
    _SafeReciprocal), and inaccurate in float32 far from any repetition (cancellation)."""
    log = from_eigh(tf.math.log)

    def error(gap, dtype):
        a = rotated(2 + 2 * gap, 2, 1, dtype=dtype.as_numpy_dtype)
        return np.abs(weighted_gradient(log, tf.constant(a)) - exact_gradient("log", a)).max()

    assert error(0, tf.float64) > 0.1 and error(1e-10, tf.float64) > 0.01, FIXED.format(
        PAGE=PAGE, anchor="eigh-matrix-function-problem"
    )
    assert error(1e-6, tf.float64) < 1e-8 and error(1e-3, tf.float64) < 1e-8
    assert error(1e-6, tf.float32) > 1e-3, f"float32 at a gap of 1e-6 is accurate now: update {PAGE}"
    assert error(1e-3, tf.float32) > 1e-5, f"float32 at a gap of 1e-3 is accurate now: update {PAGE}"
    assert error(0.3, tf.float32) < 2e-6


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_spd_function_matches_the_exact_gradient(name):
    f, df, _ = FUNCTIONS[name]
    fn = recipe(EIGH)["spd_function"](f, df)
    for dtype, tol in ((tf.float64, 1e-12), (tf.float32, 2e-6)):
        for a in [2 * np.eye(3), rotated(2, 2, 1), rotated(2 + 2e-6, 2, 1), rotated(3, 2, 1), np.diag([2.0, 2, 1])]:
            a = a.astype(dtype.as_numpy_dtype)
            np.testing.assert_allclose(fn(tf.constant(a)).numpy(), from_eigh(f)(tf.constant(a)).numpy(), atol=tol)
            g = weighted_gradient(fn, tf.constant(a))
            np.testing.assert_allclose(g, exact_gradient(name, a), atol=tol, err_msg=f"{name}, {dtype.name}, {a}")
    batch = tf.constant(np.stack([2 * np.eye(3), rotated(3, 2, 1)]))  # a batch of matrices
    with tf.GradientTape() as tape:
        tape.watch(batch)
        y = tf.reduce_sum(tf.constant(W) * fn(batch))
    g = tape.gradient(y, batch).numpy()
    for a, got in zip(batch.numpy(), g):
        np.testing.assert_allclose(got, exact_gradient(name, a), atol=1e-12)


SPD_SWITCH = "switch = 1e-5 if lam.dtype == tf.float64 else 1e-2"
SPD_MEAN = "df((li + lj) / 2)"


def spd_function_with(old, new):
    """The recipe's spd_function with one piece of its text replaced (the switch, the point of f')."""
    source = (ROOT / DIR / EIGH).read_text(encoding="utf-8")
    assert old in source, f"{DIR}/{EIGH}: {old!r} changed; update this test and {PAGE}#eigh-matrix-function-recipe"
    ns = {"tf": tf, "np": np}
    exec(compile(SECTION.search(source.replace(old, new))[1], f"{EIGH} ({new})", "exec"), ns)  # noqa: S102
    return ns["spd_function"]


GAPS = np.geomspace(1e-9, 0.3, 40)


def largest_error(spd_function, dtype, gaps=GAPS, scale=1.0, relative=False):
    """The largest error of the gradient, log and sqrt, at scale * Q diag(2 + 2g, 2, 1) Q^T over the gaps g
    (relative: divided by the largest entry of the exact gradient)."""
    errors = []
    for name, (f, df, _) in FUNCTIONS.items():
        fn = spd_function(f, df)
        for g in gaps:
            a = rotated(scale * (2 + 2 * g), scale * 2, scale, dtype=dtype.as_numpy_dtype)
            exact = exact_gradient(name, a)
            error = np.abs(weighted_gradient(fn, tf.constant(a)) - exact).max()
            errors.append(error / np.abs(exact).max() if relative else error)
    return max(errors)


def test_spd_function_switch_balances_the_two_errors():
    """The page: ~2e-12 in float64 at the switch 1e-5, ~3e-6 in float32 at 1e-2; other switches or f' at l_i are worse."""
    page = recipe(EIGH)["spd_function"]
    assert largest_error(page, tf.float64) < 5e-12, (
        f"float64 at the switch 1e-5; update {PAGE}#eigh-matrix-function-recipe"
    )
    assert largest_error(page, tf.float32) < 5e-6, (
        f"float32 at the switch 1e-2; update {PAGE}#eigh-matrix-function-recipe"
    )
    for switch, dtype, worse in (
        ("1e-7", tf.float64, 5e-11),
        ("1e-3", tf.float64, 1e-9),
        ("1e-4", tf.float32, 5e-5),
    ):
        other = spd_function_with(SPD_SWITCH, f"switch = {switch}")
        assert largest_error(other, dtype) > worse, (
            f"a switch of {switch} in {dtype.name} is as good now; update {PAGE}"
        )
    for dtype, low, near_2, high in ((tf.float64, 5e-10, 1e-11, 5e-11), (tf.float32, 1e-4, 1e-5, 5e-5)):
        # the page's range: absolute errors at eigenvalues near 2; times 0.01 larger, relative errors up to x100
        where = f"{PAGE}#eigh-matrix-function-recipe (the matrix times 0.01 and 100, {dtype.name})"
        assert largest_error(page, dtype, scale=0.01) > low, where
        assert largest_error(page, dtype, relative=True) < near_2, where
        assert near_2 < largest_error(page, dtype, scale=100, relative=True) < high, where
        assert largest_error(page, dtype, scale=0.01, relative=True) < high, where
    at_li = spd_function_with(SPD_MEAN, "df(li + 0 * lj)")
    assert largest_error(at_li, tf.float32) > 5e-4, f"f'(l_i) in float32 is as good as f' at the mean; update {PAGE}"


def test_spd_function_proof_and_alternatives():
    out = stdout_of(EIGH)
    distinct, repeated = blocks(out)[:2]
    assert set(distinct.values()) == {"OK"} and len(distinct) == 9, f"{DIR}/{EIGH}: {distinct}"
    assert repeated.pop("forward mode order 1").startswith("MISMATCH"), (
        f"{DIR}/{EIGH}: forward mode now matches at a repeated eigenvalue; update {PAGE}#eigh-matrix-function-proof"
    )
    assert set(repeated.values()) == {"OK"} and len(repeated) == 5, f"{DIR}/{EIGH}: {repeated}"
    out = stdout_of("89_eigh_matrix_function_alternatives.py")
    for line in (
        "  at diag(3.0, 2.0, 1.0): [0.1111 0.0361 0.    ], reference [0.1111 0.0361 0.    ]",
        "  at diag(2.0, 2.0, 1.0): [0.25 0.   0.  ], reference [0.25   0.0625 0.    ]",
        "  order 1 [-0.3333 -0.2027  0.    ], order 2 [nan nan nan]",
        "  sqrtm_builtin: [-0.3536 -0.1768  0.    ]\n    jit_compile: InvalidArgumentError: Detected unsupported operations",
        "  sqrtm_newton_schulz: [-0.3536 -0.1768  0.    ]\n    jit_compile: [-0.3536 -0.1768  0.    ]",
        "  Newton-Schulz at diag(1, 1e-6, 1e-6), 20 steps: error 6e-05",
        "  Newton-Schulz at diag(1, 1e-6, 1e-6), 30 steps: error 2e-16",
        "  eps 1e-06: value moves 1e-06, gradient [-0.5  -0.25  0.  ]",
        "  eps 1e-10: value moves 1e-10, gradient [-0.5   -0.125  0.   ]",
    ):
        assert line in out, (
            f"{DIR}/89_eigh_matrix_function_alternatives.py changed; update {PAGE}#eigh-matrix-function:\n{out}"
        )


def test_sqrtm_has_no_xla_kernel_and_eigh_has_one():
    a = tf.constant(2 * np.eye(3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatrixSquareRoot"):
        tf.function(tf.linalg.sqrtm, jit_compile=True)(a)
    lam = tf.function(lambda a: tf.linalg.eigh(a)[0], jit_compile=True)(a)
    np.testing.assert_allclose(lam.numpy(), [2, 2, 2])


# tf.pow(x, p) at x = 0, higher orders (#pow-zero)


def nth_derivative(f, x, order):
    """The derivative of f of this order at x, nested eager tapes (unconnected: 0)."""
    if order == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, order - 1)
    return tape.gradient(y, x, unconnected_gradients="zero")


def power_derivative(p, order, x):
    """The exact derivative of x ** p (a whole p >= 0) of this order at x."""
    if order > p:
        return np.zeros_like(x)
    return np.prod(np.arange(p - order + 1, p + 1)) * x ** (p - order)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("p", [0, 1, 2, 3])
def test_pow_at_zero_is_right_to_order_p_and_nan_from_p_plus_1(p, dtype):
    x = tf.constant([0.0], dtype)
    got = [nth_derivative(lambda v: v**p, x, n).numpy()[0] for n in range(1, 6)]  # noqa: B023
    want = [power_derivative(p, n, 0.0) for n in range(1, 6)]
    assert got[:p] == want[:p] and all(np.isnan(got[p:])), (
        f"x ** {p} at 0 ({dtype.name}), orders 1 to 5: {got}, not right to order {p} and nan after: "
        + FIXED.format(PAGE=PAGE, anchor="pow-zero")
    )
    got = [nth_derivative(lambda v: tf.pow(v, float(p)), x, n).numpy()[0] for n in range(1, 6)]  # noqa: B023
    assert got[:p] == want[:p] and all(np.isnan(got[p:])), f"tf.pow(x, {p}.0) at 0 ({dtype.name}): {got}"


def test_pow_report_polynomial_second_derivative_right_third_nan():
    """tf#35011 saw nan at order 2 on 2.0/2.1; on 2.21 order 2 is right and order 3 is nan (the page says so)."""
    x = tf.constant([-1.0, 0.0, 1.0], tf.float64)
    f = lambda v: v + v**2 + v**3 + v**4  # noqa: E731
    second, third = (nth_derivative(f, x, n).numpy() for n in (2, 3))
    assert (second == [8.0, 2.0, 20.0]).all(), f"d2 of x + ... + x^4 at [-1, 0, 1] is {second}: update {PAGE}#pow-zero"
    assert np.isnan(third[1]) and third[0] == -18.0 and third[2] == 30.0, f"d3 is {third}: update {PAGE}#pow-zero"


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_safe_pow_every_order_at_zero_and_away(dtype):
    safe_pow = recipe("81_safe_pow.py")["safe_pow"]
    values = np.array([-1.5, 0.0, 0.5])
    x = tf.constant(values, dtype)
    for p in (0, 1, 2, 3, 4):
        np.testing.assert_array_equal(safe_pow(x, p).numpy(), tf.pow(x, float(p)).numpy())
        for n in range(1, 7):
            got = nth_derivative(lambda v: safe_pow(v, p), x, n).numpy()  # noqa: B023
            np.testing.assert_allclose(
                got, power_derivative(p, n, values), rtol=1e-6, err_msg=f"{DIR}/81_safe_pow.py: p = {p}, order {n}"
            )


def test_safe_pow_zero_power_next_order_is_zero_not_none():
    """dy * 0 keeps the p = 0 gradient connected: the order after it is 0, not None (the page's recipe)."""
    safe_pow = recipe("81_safe_pow.py")["safe_pow"]
    x = tf.constant([0.0, 2.0], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = safe_pow(x, 1)
        first = inner.gradient(y, x)
    second = outer.gradient(first, x)
    assert second is not None and (second.numpy() == 0).all(), f"{DIR}/81_safe_pow.py: d2 of x ** 1 is {second}"


def test_safe_pow_order_2_with_tapes_outside_a_tf_function_matches_eager():
    safe_pow = recipe("81_safe_pow.py")["safe_pow"]
    x = tf.constant([-1.0, 0.0, 0.5], tf.float64)
    for p in (1, 2, 3):
        where = f"{DIR}/81_safe_pow.py, p = {p}, {PAGE}#pow-zero-recipe"
        assert_order_2_with_tapes_outside_matches_eager(lambda v: safe_pow(v, p), x, where)  # noqa: B023


@pytest.mark.parametrize("p", [2.5, 1 / 2.4, -1.0])
def test_safe_pow_not_whole_is_the_builtin(p):
    safe_pow = recipe("81_safe_pow.py")["safe_pow"]
    x = tf.constant([0.0, 0.5], tf.float64)
    for n in (1, 2, 3, 4):
        got = nth_derivative(lambda v: safe_pow(v, p), x, n).numpy()
        builtin = nth_derivative(lambda v: tf.pow(v, p), x, n).numpy()
        np.testing.assert_array_equal(got, builtin, err_msg=f"p = {p}, order {n}: update {PAGE}#pow-zero-recipe")


def test_pow_forward_mode_eager_first_order_at_zero():
    """An eager accumulator: tf.pow's own first derivative, right at 0 for p >= 1, nan for p = 0; the recipe's
    p = 0 (tf.ones_like, no derivative) takes grad's 0 (the page's proof paragraph)."""
    safe_pow = recipe("81_safe_pow.py")["safe_pow"]
    for p in (0, 1, 2, 3):
        for f, label in ((lambda v: safe_pow(v, p), "recipe"), (lambda v: tf.pow(v, float(p)), "built-in")):  # noqa: B023
            x = tf.constant([0.0], tf.float64)
            with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
                y = f(x)
            jvp = acc.jvp(y, unconnected_gradients="zero").numpy()[0]
            if label == "built-in" and p == 0:
                assert np.isnan(jvp), f"forward mode of tf.pow(x, 0) at 0 is {jvp}, no longer nan"
            else:
                assert jvp == power_derivative(p, 1, 0.0), f"{label}, p = {p}: forward mode at 0 is {jvp}"


def test_pow_exponent_gradient_at_zero_base_and_fractional_power():
    e = tf.constant([0.5, 2.0], tf.float64)
    zero_to_the = lambda v: tf.pow(tf.constant(0.0, tf.float64), v)  # noqa: E731
    for n in (1, 2):
        g = nth_derivative(zero_to_the, e, n).numpy()
        assert (g == 0).all(), f"order {n} of 0 ** e in e is {g}, not 0: update {PAGE}#pow-zero-alternatives"
    for dtype in (tf.float32, tf.float64):
        g = gradient(lambda v: v ** (1 / 2.4), tf.constant([0.0], dtype)).numpy()
        assert g[0] == np.inf, f"d/dx x ** (1/2.4) at 0 ({dtype.name}) is {g}: update {PAGE}#pow-zero-alternatives"


def test_safe_pow_proof_and_alternatives():
    out = stdout_of("81_safe_pow.py")
    rows = blocks(out)[0]
    assert len(rows) == 12 and set(rows.values()) == {"OK"}, f"{DIR}/81_safe_pow.py: {rows}"
    out = stdout_of("82_pow_alternatives.py")
    for line in (
        "    products: [1. 2. 6. 0.]",
        "     polyval: [1. 2. 6. 0.]",
        "  where_trap: [0. 0. 0. 0.]",
        "0 ** e at e = [0.5, 2]: d/de [0. 0.], d2/de2 [0. 0.]",
    ):
        assert line in out, f"{DIR}/82_pow_alternatives.py changed; update {PAGE}#pow-zero-alternatives:\n{out}"
    out = stdout_of("80_pow_zero_higher_order.py")
    assert "  order 3: reference [6. 6. 6.]\n    float32: [ 6. nan  6.]\n    float64: [ 6. nan  6.]" in out, out


# tf.linalg.det at a singular matrix (#det-singular)

SINGULAR = [
    [[1.0, 2.0], [2.0, 4.0]],
    [[0.0] * 3] * 3,
    [[1.0, 2, 3], [4, 5, 6], [7, 8, 9]],  # det 6.7e-16 in float64, from rounding
    [[1.0, 1, 2], [2, 2, 4], [3, 3, 6]],
]


def cofactor_reference(values):
    """Central differences of the value of tf.linalg.det, float64 (a polynomial: smooth everywhere)."""
    a = np.array(values, np.float64)
    return central_difference(lambda v: float(tf.linalg.det(tf.constant(v.reshape(a.shape)))), a.ravel()).reshape(
        a.shape
    )


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("values", SINGULAR, ids=["2x2", "zeros", "1to9", "rank1"])
def test_det_gradient_raises_at_a_singular_matrix(values, dtype):
    a = tf.constant(values, dtype)
    for f in (tf.linalg.det, lambda m: tf.linalg.slogdet(m)[1]):
        for run in (lambda a, f=f: gradient(f, a), tf.function(lambda a, f=f: gradient(f, a))):
            with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
                run(a)
    if values == SINGULAR[2] and dtype == tf.float64:
        assert 0 < abs(tf.linalg.det(a).numpy()) < 1e-14, "[[1..9]]'s float64 det is no longer ~6.7e-16"


def test_det_has_no_xla_kernel_and_forward_mode_raises():
    a = tf.constant(SINGULAR[0], tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatrixDeterminant"):
        tf.function(tf.linalg.det, jit_compile=True)(a)
    with pytest.raises(tf.errors.InvalidArgumentError):
        with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
            y = tf.linalg.det(a)
        acc.jvp(y)


@pytest.mark.parametrize("values", [*SINGULAR, [[2.0, 1, 0], [1, 3, 1], [0, 1, 4]], [[5.0]]])
def test_cofactor_det_orders_1_and_2(values):
    det = recipe("84_det_cofactor.py")["det"]
    a = tf.constant(values, tf.float64)
    assert det(a).numpy() == tf.linalg.det(a).numpy()
    np.testing.assert_allclose(gradient(det, a).numpy(), cofactor_reference(values), atol=1e-6)
    # order 2 along a direction v: the second difference of the value
    v = tf.constant(np.arange(1.0, a.shape[0] ** 2 + 1).reshape(a.shape) % 3 - 1, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(a)
        first = tf.reduce_sum(gradient(det, a) * v)
    second = tf.reduce_sum(outer.gradient(first, a, unconnected_gradients="zero") * v).numpy()
    h, d = 1e-3, tf.linalg.det
    want = float((d(a + h * v) - 2 * d(a) + d(a - h * v)) / h**2)
    assert abs(second - want) < 1e-6, f"{DIR}/84_det_cofactor.py at {values}: order 2 {second}, not {want}"


def test_cofactor_det_batched():
    det = recipe("84_det_cofactor.py")["det"]
    a = tf.constant([SINGULAR[2], SINGULAR[3]], tf.float64)
    g = gradient(lambda m: tf.reduce_sum(det(m)), a).numpy()
    for k in range(2):
        np.testing.assert_allclose(g[k], cofactor_reference(a[k].numpy()), atol=1e-6)


def test_det_proof_and_alternatives():
    out = stdout_of("84_det_cofactor.py")
    rows = blocks(out)[0]
    assert rows.pop("jit_compile order 1").startswith("MISMATCH InvalidArgumentError"), (
        f"{DIR}/84_det_cofactor.py: tf.linalg.det now compiles with XLA; update {PAGE}#det-singular-proof:\n{out}"
    )
    assert rows.pop("forward mode order 1").startswith("MISMATCH InvalidArgumentError"), out
    assert set(rows.values()) == {"OK"}, f"{DIR}/84_det_cofactor.py: {rows}"
    out = stdout_of("85_det_alternatives.py")
    for line in (
        "rank-1 a, along v: reference first 0.0000, second 4.0000",
        "  det_svd: first 0.0000, second 11.2000",
        "     det3: first 0.0000, second 4.0000",
        "det3 gradient, jit_compile: [[-3.0, 6.0, -3.0], [6.0, -12.0, 6.0], [-3.0, 6.0, -3.0]]",
    ):
        assert line in out, f"{DIR}/85_det_alternatives.py changed; update {PAGE}#det-singular-alternatives:\n{out}"
    out = stdout_of("83_det_singular_error.py")
    assert (
        out.count(": InvalidArgumentError\n") == 8
        and "each error: InvalidArgumentError: Input is not invertible." in out
    ), out


def test_spd_function_second_order_is_right_at_a_gap_of_1e_6_and_wrong_close_to_a_repeated_eigenvalue():
    """The page's proof: order 2 matches at a relative gap of 1e-6; closer to a repeated eigenvalue it does not."""
    f, df, _ = FUNCTIONS["log"]
    fn = recipe(EIGH)["spd_function"](f, df)
    direction = tf.constant((W + W.T) / 2)

    def directional(a):  # d/dt of the gradient along `direction`, and its central difference
        with tf.GradientTape() as outer:
            outer.watch(a)
            with tf.GradientTape() as inner:
                inner.watch(a)
                y = tf.reduce_sum(tf.constant(W) * fn(a))
            g = inner.gradient(y, a)
            gd = tf.reduce_sum(g * direction)
        second = outer.gradient(gd, a).numpy()
        h = 1e-4
        numeric = (weighted_gradient(fn, a + h * direction) - weighted_gradient(fn, a - h * direction)) / (2 * h)
        return np.abs(second - numeric).max()

    where = f"{PAGE}#eigh-matrix-function-proof (order 2 near a repeated eigenvalue)"
    errors = {gap: directional(tf.constant(rotated(2 + 2 * gap, 2, 1))) for gap in (1e-6, 1e-7, 1e-8, 1e-9, 1e-10)}
    assert errors[1e-6] < 1e-7 and errors[1e-7] < 1e-7, f"{errors}: {where}"
    assert 4e-7 < errors[1e-8] < 2e-6 and 4e-5 < errors[1e-9] < 2e-4 and 3e-3 < errors[1e-10] < 2e-2, (
        f"{errors}: {where}"
    )
