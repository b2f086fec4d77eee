"""L = 3*y: the tape hands grad dy = dL/dy = 3."""

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
    L = 3.0 * y
print(f"forward pass done: y = {float(y):.4f}, L = {float(L):.4f}")
print("calling tape.gradient(L, x)")
dx = tape.gradient(L, x)
print(f"dL/dx = {float(dx):.4f}  (= 3 * 0.5)")
