"""Watch when the forward function and grad run: the output itself is the target, so dy = 1."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    print(f"forward: log1pexp runs, x = {float(x):.4f}")
    e = tf.exp(x)

    def grad(dy):
        print(f"backward: grad runs, dy = {float(dy):.4f}")
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.constant(0.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print(f"forward pass done: y = {float(y):.4f}; grad has not run yet")
print("calling tape.gradient(y, x)")
dx = tape.gradient(y, x)
print(f"dy/dx = {float(dx):.4f}")
