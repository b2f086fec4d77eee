"""The forward pass reads a tf.Variable, but grad has no `variables` argument."""

import tensorflow as tf

w = tf.Variable(3.0, name="w")


@tf.custom_gradient
def scale(x):
    def grad(dy):  # BUG: should be grad(dy, variables=None)
        return dy * w

    return x * w, grad


x = tf.constant(2.0)
try:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)  # raised here, in the forward pass, not in tape.gradient
except TypeError as e:
    print(f"{type(e).__name__}: {e}")
