"""Calling .numpy() inside grad works eagerly but fails inside tf.function."""

import tensorflow as tf


@tf.custom_gradient
def double(x):
    def grad(dy):
        return dy.numpy() * 2.0  # BUG: inside tf.function dy is symbolic

    return 2.0 * x, grad


def gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = double(x)
    return tape.gradient(y, x)


x = tf.constant(1.0)
print(f"eager: {float(gradient(x)):.1f}")
try:
    tf.function(gradient)(x)
except AttributeError as e:
    # the last line is the message, without TF's "in user code" trace
    last_line = str(e).strip().splitlines()[-1].strip()
    message = last_line.removeprefix("AttributeError: ")
    print(f"tf.function: {type(e).__name__}: {message}")
