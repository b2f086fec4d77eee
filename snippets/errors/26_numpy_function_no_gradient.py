"""No gradient flows through tf.numpy_function; a custom gradient supplies one."""

import numpy as np
import tensorflow as tf

x = tf.constant([1.0, 2.0])


def gradient(f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def numpy_sinh(x):
    return tf.numpy_function(np.sinh, [x], tf.float32)


@tf.custom_gradient
def numpy_sinh_with_gradient(x):
    def grad(dy):
        return dy * tf.cosh(x)  # d sinh(x)/dx, written with TensorFlow ops

    return numpy_sinh(x), grad


print("numpy_function, eager:        ", gradient(numpy_sinh))
print("numpy_function, tf.function:  ", tf.function(gradient)(numpy_sinh))
with tf.Graph().as_default():  # a TF1 graph: no tape, tf.gradients
    x_in_graph = tf.constant([1.0, 2.0])
    y = numpy_sinh(x_in_graph)
    print("numpy_function, tf.gradients: ", tf.gradients(y, x_in_graph))
print(
    "with tf.custom_gradient:      ", gradient(numpy_sinh_with_gradient).numpy()
)
print("cosh(x), for comparison:      ", tf.cosh(x).numpy())
