"""Eager mode: grad returns one gradient for a function of two inputs."""

import tensorflow as tf


@tf.custom_gradient
def multiply(x, y):
    def grad(dy):
        return dy * y  # BUG: two inputs (x, y), so two gradients are needed

    return x * y, grad


x, y = tf.constant(2.0), tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch([x, y])
    z = multiply(x, y)
try:
    tape.gradient(z, [x, y])
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
