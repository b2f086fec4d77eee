"""RegisterGradient + override map, n-th order with nested tapes outside the tf.function that builds the op."""

import math

import numpy as np
import tensorflow as tf


@tf.RegisterGradient("NumpySinGrad")
def _numpy_sin_grad(op, dy):
    return dy * tf.cos(op.inputs[0])


# the override lives in this function's graph; every tape below is outside it
@tf.function
def numpy_sin(x):
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map({"PyFunc": "NumpySinGrad"}):
        return tf.numpy_function(np.sin, [x], tf.float64)


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:  # eager tapes, not inside a tf.function
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


x = tf.constant(0.5, tf.float64)
print("order | nested tapes  | closed form   | abs error")
for n in range(1, 9):
    value = nth_derivative(numpy_sin, x, n).numpy()
    exact = math.sin(0.5 + n * math.pi / 2)
    print(f"{n:5} | {value:+.10f} | {exact:+.10f} | {abs(value - exact):.1e}")
