"""tf.math.reduce_std of a constant input: value 0, gradient nan."""

import tensorflow as tf


def central_difference(f, x, h=1e-6):
    """The float64 reference: (f(x + h e_i) - f(x - h e_i)) / 2h per entry."""
    x = tf.cast(x, tf.float64)
    steps = h * tf.eye(tf.size(x), dtype=tf.float64)
    return tf.stack([(f(x + e) - f(x - e)) / (2 * h) for e in steps])


for values in ([3.0, 3.0, 3.0], [0.1, 0.1, 0.1], [0.7], [1.0, 2.0, 4.0]):
    reference = central_difference(tf.math.reduce_std, tf.constant(values))
    print(f"x = {values}: reference {reference.numpy().round(4)}")
    for dtype in (tf.float32, tf.float64):
        x = tf.constant(values, dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            std = tf.math.reduce_std(x)
        gradient = tape.gradient(std, x)
        print(
            f"  {dtype.name}: std {std.numpy():.4g}, "
            f"gradient {gradient.numpy().round(4)}"
        )
