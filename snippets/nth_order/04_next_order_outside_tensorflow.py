"""If grad computes the next order outside TensorFlow, the chain ends: None."""

import math

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def sin_with_numpy_grad(x):
    def grad(dy):
        cos_x = np.cos(x.numpy())  # right value, no link to x for TF
        return dy * tf.constant(cos_x)

    return tf.sin(x), grad


x = tf.constant(0.5, tf.float64)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = sin_with_numpy_grad(x)
    first = inner.gradient(y, x)
second = outer.gradient(first, x)
print(f"order 1: {first.numpy():+.10f}  (closed form {math.cos(0.5):+.10f})")
print(f"order 2: {second}  (closed form {-math.sin(0.5):+.10f})")
