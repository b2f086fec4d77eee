"""RegisterGradient: an opaque op, a gradient of TF ops, nested tf.gradients."""

import math

import numpy as np
import tensorflow as tf


@tf.RegisterGradient("NumpySinGrad")
def _numpy_sin_grad(op, dy):
    return dy * tf.cos(op.inputs[0])  # TF ops: TF can differentiate them again


def numpy_sin(x):
    """An op TF cannot look inside (like a custom C++ op): type "PyFunc"."""
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map({"PyFunc": "NumpySinGrad"}):
        return tf.numpy_function(np.sin, [x], tf.float64)


def orders_0_to_8(x):
    derivatives = [numpy_sin(x)]
    for _ in range(8):  # differentiate the last gradient again
        derivatives.append(tf.gradients(derivatives[-1], x)[0])
    return derivatives


graph = tf.Graph()
with graph.as_default():
    x = tf.constant(0.5, tf.float64)
    graph_orders = orders_0_to_8(x)
with tf.compat.v1.Session(graph=graph) as session:
    graph_values = session.run(graph_orders)
function_values = tf.function(orders_0_to_8)(tf.constant(0.5, tf.float64))

print("order | tf.Graph      | tf.function   | closed form   | abs error")
for n in range(1, 9):
    in_graph, in_function = graph_values[n], function_values[n].numpy()
    exact = math.sin(0.5 + n * math.pi / 2)
    error = max(abs(in_graph - exact), abs(in_function - exact))
    row = [f"{in_graph:+.10f}", f"{in_function:+.10f}", f"{exact:+.10f}"]
    print(f"{n:5} | " + " | ".join(row) + f" | {error:.1e}")
