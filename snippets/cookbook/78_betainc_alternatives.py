"""Central differences of betainc in grad: order 1 only, two calls each."""

import tensorflow as tf

a, b, x = (tf.constant(v, tf.float64) for v in (2.0, 3.0, 0.4))
h = 1e-5


@tf.custom_gradient
def betainc_differences(a, b, x):
    def grad(dy):
        da = tf.math.betainc(a + h, b, x) - tf.math.betainc(a - h, b, x)
        db = tf.math.betainc(a, b + h, x) - tf.math.betainc(a, b - h, x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.betainc(a, b, x)
        dx = tape.gradient(y, x)
        return dy * da / (2 * h), dy * db / (2 * h), dy * dx

    return tf.math.betainc(a, b, x), grad


with tf.GradientTape() as outer:
    outer.watch(a)
    with tf.GradientTape() as inner:
        inner.watch(a)
        y = betainc_differences(a, b, x)
    da = inner.gradient(y, a)
print(f"differences in grad: d/da {da:.6f}, d2/da2 {outer.gradient(da, a)}")
