"""The double where around tf.math.atan2: right at (0, 0), not next to it."""

import tensorflow as tf


def atan2_double_where(y, x):
    """atan2 never sees (0, 0): the origin's inputs are replaced by (1, 1)."""
    origin = tf.logical_and(tf.equal(y, 0), tf.equal(x, 0))
    one = tf.ones_like(y)
    angle = tf.math.atan2(tf.where(origin, one, y), tf.where(origin, one, x))
    return tf.where(origin, tf.zeros_like(angle), angle)


for y0, x0 in [(0.0, 0.0), (1e-30, 0.0), (1.0, 1.0)]:
    y, x = tf.constant(y0), tf.constant(x0)  # float32
    with tf.GradientTape() as tape:
        tape.watch([y, x])
        angle = atan2_double_where(y, x)
    dy, dx = tape.gradient(angle, [y, x])
    with tf.autodiff.ForwardAccumulator([y, x], [1.0, 1.0]) as acc:
        tangent = acc.jvp(atan2_double_where(y, x))
    print(
        f"({y0:g}, {x0:g}): angle {angle.numpy():.4f}, gradient "
        f"({dy.numpy():g}, {dx.numpy():g}), forward mode {tangent.numpy():g}"
    )
