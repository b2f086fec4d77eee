"""GradientTape ignores gradient_override_map; graph tf.gradients uses it."""

import numpy as np
import tensorflow as tf


@tf.RegisterGradient("NumpySinGrad")
def _numpy_sin_grad(op, dy):
    return dy * tf.cos(op.inputs[0])


def numpy_sin(x):
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map({"PyFunc": "NumpySinGrad"}):
        return tf.numpy_function(np.sin, [x], tf.float64)


x = tf.constant(0.5, tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = numpy_sin(x)
print("eager,       GradientTape:", tape.gradient(y, x))


@tf.function
def both_ways(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = numpy_sin(x)
    return tape.gradient(y, x), tf.gradients(y, x)[0]


with_tape, with_tf_gradients = both_ways(x)
print("tf.function, GradientTape:", with_tape)
print(f"tf.function, tf.gradients: {with_tf_gradients.numpy():.10f}")
print(f"cos(0.5):                  {np.cos(0.5):.10f}")
