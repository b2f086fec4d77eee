"""tf.py_function: the tape sees the TensorFlow ops inside; NumPy inside gives a silent scalar 0, not None."""

import numpy as np
import tensorflow as tf

x = tf.constant([1.0, 2.0])


def gradient(f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def tensorflow_inside(x):
    return tf.py_function(lambda t: tf.sinh(t), [x], tf.float32)


def numpy_inside(x):
    return tf.py_function(lambda t: np.sinh(t.numpy()), [x], tf.float32)


@tf.function
def with_tf_gradients(f):
    return tf.gradients(f(x), x)[0]


for name, f in [
    ("TensorFlow ops inside", tensorflow_inside),
    ("NumPy inside", numpy_inside),
]:
    print(f"py_function, {name}:")
    for context, g in [
        ("eager", gradient),
        ("tf.function", tf.function(gradient)),
        ("tf.gradients", with_tf_gradients),
    ]:
        result = g(f)
        print(
            f"  {context + ':':13} {result.numpy()} (shape {tuple(result.shape)})"
        )
print("cosh(x), for comparison:", tf.cosh(x).numpy())
