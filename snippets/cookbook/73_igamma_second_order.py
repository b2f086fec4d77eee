"""tf.math.igamma(a, x): no second derivative in a; d/dx at (1, 0) is nan."""

import tensorflow as tf

for dtype in (tf.float32, tf.float64):
    a, x = tf.constant(2.0, dtype), tf.constant(1.5, dtype)
    try:
        with tf.GradientTape() as outer:
            outer.watch(a)
            with tf.GradientTape() as inner:
                inner.watch(a)
                p = tf.math.igamma(a, x)  # the Gamma(a, 1) CDF at x
            da = inner.gradient(p, a)
        print(f"{dtype.name}: d/da {da:.6f}, d2/da2 {outer.gradient(da, a)}")
    except LookupError as e:
        print(
            f"{dtype.name}: d/da {da:.6f}, d2/da2:\n  {type(e).__name__}: {e}"
        )

a, x, h = tf.constant(2.0, tf.float64), tf.constant(1.5, tf.float64), 1e-5
first = lambda a: tf.raw_ops.IgammaGradA(a=a, x=x)  # noqa: E731 (TF's d/da)
reference = (first(a + h) - first(a - h)) / (2 * h)
print(f"reference d2/da2 (differences of d/da): {reference:.6f}")

for dtype in (tf.float32, tf.float64):  # P(1, x) = 1 - exp(-x): slope 1 at 0
    a, x = tf.constant(1.0, dtype), tf.constant(0.0, dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        p = tf.math.igamma(a, x)
    print(f"{dtype.name}: d/dx igamma(1, 0) = {tape.gradient(p, x)} (exact: 1)")
