"""tf.math.cumprod at a zero factor: no nan, no error, a wrong gradient."""

import tensorflow as tf


def central_difference(f, x, h=1e-6):
    """The float64 reference: (f(x + h e_i) - f(x - h e_i)) / 2h per entry."""
    x = tf.cast(x, tf.float64)
    steps = h * tf.eye(tf.size(x), dtype=tf.float64)
    return tf.stack([(f(x + e) - f(x - e)) / (2 * h) for e in steps])


def loss(x):  # the sum of every prefix product, as in the reports
    return tf.reduce_sum(tf.math.cumprod(x))


for values in (
    [1.0, 2.0, 3.0],
    [0.0, 2.0, 3.0],
    [2.0, 3.0, 0.0],
    [2.0, 0.0, 0.0, 3.0],
):
    reference = central_difference(loss, tf.constant(values))
    print(f"x = {values}: reference {reference.numpy().round(4)}")
    for dtype in (tf.float32, tf.float64):
        x = tf.constant(values, dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        print(f"  {dtype.name}: gradient {tape.gradient(y, x).numpy()}")
