"""Two simpler ways to d/dx zeta(x, q), and where each stops."""

import tensorflow as tf

x, q = tf.constant(1.2, tf.float64), tf.constant(2.0, tf.float64)
h = 1e-6
reference = (tf.math.zeta(x + h, q) - tf.math.zeta(x - h, q)) / (2 * h)
print(f"d/dx zeta(1.2, 2), central differences: {reference:.6f}")

for n in (1_000, 100_000):  # the plain sum, cut off: its tail is missing
    u = q + tf.range(n, dtype=tf.float64)
    plain = -tf.reduce_sum(tf.math.log(u) / u**x)
    print(f"  first {n:>7,} terms of -sum log(n+q)/(n+q)^x: {plain:.6f}")


@tf.custom_gradient
def zeta_differences(x, q):  # grad by central differences of tf.math.zeta
    def grad(dz):
        dx = (tf.math.zeta(x + h, q) - tf.math.zeta(x - h, q)) / (2 * h)
        return dz * dx, dz * -x * tf.math.zeta(x + 1, q)

    return tf.math.zeta(x, q), grad


with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        z = zeta_differences(x, q)
    first = inner.gradient(z, x)
second = outer.gradient(first, x)
print(f"differences in grad: order 1 {first:.6f}, order 2 {second}")
