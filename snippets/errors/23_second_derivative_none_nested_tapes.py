"""Nested tapes: the first gradient taken outside the outer tape gives a None second derivative."""

import tensorflow as tf

x = tf.constant(3.0)

with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = x**3
dy_dx = inner.gradient(y, x)  # outside `outer`: not recorded
print(
    "first gradient outside the outer tape: ",
    dy_dx.numpy(),
    outer.gradient(dy_dx, x),
)

with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = x**3
    dy_dx = inner.gradient(y, x)  # inside `outer`: recorded
print(
    "first gradient inside the outer tape:  ",
    dy_dx.numpy(),
    outer.gradient(dy_dx, x).numpy(),
)
