"""The tape outside, the custom gradient inside a tf.function: the IdentityN message."""

import tensorflow as tf


@tf.custom_gradient
def multiply(x, y):
    def grad(dy):
        return dy * y  # BUG: one gradient for two inputs

    return x * y, grad


@tf.function
def model(x, y):
    return multiply(x, y)


x, y = tf.constant(2.0), tf.constant(3.0)
try:
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        # the error comes here, while TF builds the backward function
        z = model(x, y)
except ValueError as e:
    # the middle lines are a dump of the IdentityN op
    lines = str(e).splitlines()
    print(f"{type(e).__name__}: {lines[0]} ... {lines[-1].strip()}")
