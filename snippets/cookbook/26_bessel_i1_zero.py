"""tf.math.bessel_i1 at x = 0: its gradient is 1.0; I1'(0) is 0.5."""

import tensorflow as tf

H = 1e-6  # the float64 reference: central differences

for values in ([0.0], [1e-10], [1.0]):
    x64 = tf.constant(values, tf.float64)
    reference = (tf.math.bessel_i1(x64 + H) - tf.math.bessel_i1(x64 - H)) / (
        2 * H
    )
    print(f"x = {values}: reference {reference.numpy().round(6)}")
    for dtype in (tf.float32, tf.float64):
        x = tf.constant(values, dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.bessel_i1(x)
        print(
            f"  {dtype.name}: gradient {tape.gradient(y, x).numpy().round(6)}"
        )
