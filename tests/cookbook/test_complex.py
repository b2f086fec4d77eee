"""The recipes of docs/cookbook/complex.md, checked on TensorFlow itself.

Each built-in failure test names the section to rewrite when TensorFlow fixes it; each recipe test runs the page's
`recipe` section (not a copy) against its reference; the proofs are read from the snippets' real output. The first
recipe of the page (complex-custom-gradient) is checked in tests/cookbook/test_cookbook.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import blocks, gradient, recipe, stdout_of

PAGE = "docs/cookbook/complex.md"
FIXED = "TensorFlow fixed it: rewrite {PAGE}#{anchor} (and .ru.md; say from which release) and its snippets"

# tf.math.angle at a complex zero (#angle-complex-zero)

COMPLEX = [tf.complex64, tf.complex128]
POINTS = [3 + 4j, -1 + 2j, 0.5 - 0.1j, -2 - 1j, 1e-30j, 2e-20 + 1e-20j]


def reference(z0: complex, h: float | None = None) -> complex:
    """d/dx + i d/dy of the angle at z0, by float64 central differences (the step scaled to |z0|)."""
    h = h or 1e-6 * abs(z0)
    dx = (np.angle(z0 + h) - np.angle(z0 - h)) / (2 * h)
    dy = (np.angle(z0 + 1j * h) - np.angle(z0 - 1j * h)) / (2 * h)
    return dx + 1j * dy


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("size", [1, 3, 16])
def test_angle_gradient_at_a_complex_zero_is_not_a_number(size, dtype):
    z = tf.zeros([size], dtype)
    assert (tf.math.angle(z).numpy() == 0).all()
    g = gradient(tf.math.angle, z).numpy()
    assert np.isnan(g.imag).all() and not np.isfinite(g.real).any(), (
        f"tf.math.angle's gradient at {size} complex zeros ({dtype.name}) is {g}: "
        + FIXED.format(PAGE=PAGE, anchor="angle-complex-zero")
    )


@pytest.mark.parametrize("dtype", COMPLEX)
def test_angle_gradient_of_a_lone_zero_is_minus_inf_and_of_whole_packets_nan(dtype):
    """The page says which value comes from where (Eigen's scalar and vectorized reciprocal)."""
    lone = complex(gradient(tf.math.angle, tf.zeros([1], dtype)).numpy()[0])
    assert lone.real == -np.inf and np.isnan(lone.imag), f"{PAGE}#angle-complex-zero-problem: a lone zero gives {lone}"
    packets = gradient(tf.math.angle, tf.zeros([16], dtype)).numpy()
    assert np.isnan(packets.real).all(), f"{PAGE}#angle-complex-zero-problem: 16 zeros give {packets}"
    jit = complex(tf.function(lambda z: gradient(tf.math.angle, z), jit_compile=True)(tf.zeros([1], dtype))[0])
    assert np.isnan(jit.real), f"{PAGE}#angle-complex-zero-problem: a lone zero under jit_compile gives {jit}"


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_angle_through_tf_complex_r_0(dtype):
    grads = {}
    tiny = float(np.finfo(dtype.as_numpy_dtype).tiny)  # the smallest normal number
    for r0 in (-1.0, 0.0, 1.0, tiny, tiny / 4, -tiny / 4):  # tiny / 4: subnormal, flushed to 0 like r = 0
        r = tf.constant(r0, dtype)
        grads[r0] = float(gradient(lambda r: tf.math.angle(tf.complex(r, tf.zeros_like(r))), r))
    want = {-1.0: 0.0, 0.0: -np.inf, 1.0: 0.0, tiny: 0.0, tiny / 4: -np.inf, -tiny / 4: -np.inf}
    assert grads == want, (
        f"the gradient of angle(complex(r, 0)) in r ({dtype.name}) is {grads}: update {PAGE}#angle-complex-zero"
    )
    assert gradient(tf.math.angle, tf.constant([-1.0, 0.0, 1.0], dtype)) is None, (
        f"tf.math.angle of a real tensor has a gradient now: update {PAGE}#angle-complex-zero-problem"
    )


@pytest.mark.parametrize("dtype", COMPLEX)
def test_angle_builtin_gradient_is_exact_next_to_zero(dtype):
    """The page says the reciprocal does not underflow: the built-in gradient is right everywhere but at 0."""
    z = tf.constant(POINTS, dtype)
    got = gradient(tf.math.angle, z).numpy()
    np.testing.assert_allclose(got, [reference(p) for p in POINTS], rtol=1e-5 if dtype == tf.complex64 else 1e-8)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("size", [1, 3, 16])
def test_safe_angle_is_zero_at_zero_and_the_reference_elsewhere(size, dtype):
    safe_angle = recipe("91_safe_angle.py")["safe_angle"]
    values = [0j] * size + POINTS
    z = tf.constant(values, dtype)
    np.testing.assert_array_equal(safe_angle(z).numpy(), tf.math.angle(z).numpy())
    g = gradient(safe_angle, z).numpy()
    assert (g[:size] == 0).all(), f"safe_angle's gradient at {size} zeros ({dtype.name}) is {g[:size]}, not 0"
    tol = 1e-5 if dtype == tf.complex64 else 1e-8
    np.testing.assert_allclose(g[size:], [reference(p) for p in POINTS], rtol=tol)


def test_safe_angle_second_derivative_against_differences_of_the_first():
    """Order 2 through the parts p = (x, y): the Hessian of atan2(y, x) against differences of the gradient."""
    safe_angle = recipe("91_safe_angle.py")["safe_angle"]

    def first(p):
        p = tf.constant(p, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(p)
            a = safe_angle(tf.complex(p[0], p[1]))
        return tape.gradient(a, p)

    for x, y in [(3.0, 4.0), (-1.0, 2.0), (0.5, -0.1)]:
        p = tf.constant([x, y], tf.float64)
        with tf.GradientTape() as outer:
            outer.watch(p)
            with tf.GradientTape() as inner:
                inner.watch(p)
                a = safe_angle(tf.complex(p[0], p[1]))
            g = inner.gradient(a, p)
        hessian = outer.jacobian(g, p).numpy()
        h = 1e-6
        want = np.stack(
            [(first([x + h, y]) - first([x - h, y])) / (2 * h), (first([x, y + h]) - first([x, y - h])) / (2 * h)],
            axis=1,
        )
        np.testing.assert_allclose(hessian, want, rtol=1e-6, atol=1e-9)
        r2 = x * x + y * y  # d/dx (-y / r2), d/dy (x / r2): the closed form
        np.testing.assert_allclose(hessian[0, 0], 2 * x * y / r2**2, rtol=1e-9)


def test_safe_angle_proof():
    out = stdout_of("91_safe_angle.py")
    away, zero = blocks(out)[:2]
    assert len(away) == 9 and set(away.values()) == {"OK"}, f"snippets/cookbook/91_safe_angle.py away from 0: {away}"
    forward = zero.pop("forward mode order 1")
    assert set(zero.values()) == {"OK"} and len(zero) == 5, f"snippets/cookbook/91_safe_angle.py at 0: {zero}"
    assert forward.startswith("MISMATCH"), f"forward mode now uses grad at 0 ({forward}): update {PAGE}"
    assert "complex64, 16 x 0+0j: ['0+0j'], exact 0" in out, out
    assert "complex64,  1 x 0+1e-30j: ['-1e+30+0j'], exact -1e+30+0j" in out, out


def test_angle_alternatives():
    out = stdout_of("92_angle_alternatives.py")
    for dtype in ("complex64 ", "complex128"):
        assert f"double where, {dtype}: gradient [0+0j, -0.16+0.12j, -1e+30-0j]" in out, out
        assert f"one where, {dtype}: gradient [nan+nanj, -0.16+0.12j, -1e+30-0j]" in out, out
        assert f"atan2(imag, real), {dtype}: gradient [nan+nanj, -0.16+0.12j" in out, out
    assert "atan2(imag, real), complex64 : gradient [nan+nanj, -0.16+0.12j, -inf+nanj]" in out, out
    assert "double where, forward mode at 0 along (0.6, 0.8): 0\n" in out, out
    problem = stdout_of("90_angle_complex_zero.py")
    for dtype, sub in (("float32", "2.9e-39"), ("float64", "5.6e-309")):
        for way, at_zero in (("one element", "-inf"), ("16 elements", "nan"), ("jit_compile", "nan")):
            line = f"  {dtype}, {way}: r = -1: 0, r = 0: {at_zero}, r = 1: -0, r = {sub}: {at_zero}\n"
            assert line in problem, f"{PAGE}#angle-complex-zero-problem: no line {line!r} in\n{problem}"
    assert "z = 3+4j: gradient -0.1600+0.1200j, reference -0.1600+0.1200j" in problem, problem
