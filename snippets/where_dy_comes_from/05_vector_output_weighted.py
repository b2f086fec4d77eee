"""A vector output: dy has the output's shape; weights in L = sum(w * y) arrive as dy."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    print(f"forward: log1pexp runs, x = {x.numpy().round(4)}")
    e = tf.exp(x)

    def grad(dy):
        print(f"backward: grad runs, dy = {dy.numpy().round(4)}")
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.constant([-1.0, 0.0, 1.0])
w = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = log1pexp(x)
    L = tf.reduce_sum(w * y)
print("calling tape.gradient(L, x) with L = sum(w * y)")
print(f"dL/dx = {tape.gradient(L, x).numpy().round(4)}")
print("calling tape.gradient(y, x): a non-scalar target starts from ones")
print(f"result = {tape.gradient(y, x).numpy().round(4)}")
print("calling tape.gradient(y, x, output_gradients=5.0): a scalar, unchecked")
result = tape.gradient(y, x, output_gradients=tf.constant(5.0))
print(f"result = {result.numpy().round(4)}")
