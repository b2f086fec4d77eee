"""Each training step records a new tape: dy is made fresh, nothing is carried over from the last step."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    print(f"  forward: x = {float(x):.4f}, stores e = {float(e):.4f}")

    def grad(dy):
        print(f"  backward: dy = {float(dy):.4f}")
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.Variable(1.0)
for step in range(1, 4):
    print(f"step {step}:")
    with tf.GradientTape() as tape:
        y = log1pexp(x)
        L = y**2  # so dy = 2 * y of this step
    g = tape.gradient(L, x)
    print(f"  2 * y = {2 * float(y):.4f}, dL/dx = {float(g):.4f}")
    x.assign_sub(0.5 * g)
