"""log(1 + exp(x)) for a large x: TensorFlow's gradient is 0, then nan."""

import numpy as np
import tensorflow as tf


def naive(x):
    return tf.math.log(1 + tf.exp(x))


@tf.custom_gradient
def log1pexp_docstring(x):  # the tf.custom_gradient docstring's example
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def value_and_gradient(f, x, dtype):
    x = tf.constant(x, dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return float(y), float(tape.gradient(y, x))


def reference(x, h=1e-6):  # float64 central differences of NumPy's own
    return (np.logaddexp(0, x + h) - np.logaddexp(0, x - h)) / (2 * h)


def first(bad, dtype, lo, hi):
    """The smallest x of the dtype in (lo, hi] whose gradient is bad, by
    bisection (bad at hi, not at lo), printed as that dtype's shortest."""
    lo, hi = dtype.as_numpy_dtype(lo), dtype.as_numpy_dtype(hi)
    while (mid := dtype.as_numpy_dtype(lo + (hi - lo) / 2)) not in (lo, hi):
        lo, hi = (
            (lo, mid)
            if bad(value_and_gradient(naive, mid, dtype)[1])
            else (mid, hi)
        )
    return np.format_float_positional(hi, unique=True)


print("log(1 + exp(x)) with TensorFlow's own gradient:")
for x in (10.0, 88.0, 89.0):
    value, slope = value_and_gradient(naive, x, tf.float32)
    print(
        f"  float32, x = {x}: value {value:.4f}, gradient {slope:.4f}, "
        f"reference {reference(x):.4f}"
    )
print("where the gradient stops being right (the reference is 1.0000 there):")
for dtype, lo, hi in [
    (tf.float16, 5, 20),
    (tf.float32, 80, 100),
    (tf.float64, 700, 720),
]:
    wrong = first(lambda g: not g > 0.5, dtype, lo, hi)  # 0 or nan
    nan = first(np.isnan, dtype, lo, hi)
    zero = f"0 from x = {wrong}, " if wrong != nan else ""
    print(f"  {dtype.name}: {zero}nan from x = {nan}")
print("the docstring's custom gradient, float32:")
for x in (89.0, -20.0):
    value, slope = value_and_gradient(log1pexp_docstring, x, tf.float32)
    print(
        f"  x = {x}: value {value:.4g}, gradient {slope:.4g}, "
        f"reference value {np.logaddexp(0, x):.4g}, gradient {reference(x):.4g}"
    )
