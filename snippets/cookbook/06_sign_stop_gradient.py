"""Straight-through without a decorator: x + tf.stop_gradient(sign(x) - x)."""

import tensorflow as tf


def plain(x):
    return x + tf.stop_gradient(tf.sign(x) - x)  # gradient 1 everywhere


def clipped(x):
    c = tf.clip_by_value(x, -1.0, 1.0)  # gradient 1 on [-1, 1], 0 outside
    return c + tf.stop_gradient(tf.sign(x) - c)


x = tf.constant(
    [-2.0, -0.5, 0.3, 1.5, 1e8]
)  # float32: plain loses 1e8 + 1 - 1e8
for f in (plain, clipped):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        loss = tf.reduce_sum(3.0 * y)  # dy = 3 for every element
    print(
        f"{f.__name__:>7}: value {y.numpy()}, gradient {tape.gradient(loss, x).numpy()}"
    )
