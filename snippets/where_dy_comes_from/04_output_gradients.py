"""tape.gradient(y, x, output_gradients=...) chooses the first dy yourself."""

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
print("calling tape.gradient(y, x, output_gradients=tf.constant(5.0))")
dx = tape.gradient(y, x, output_gradients=tf.constant(5.0))
print(f"result = {float(dx):.4f}  (= 5 * 0.5)")
