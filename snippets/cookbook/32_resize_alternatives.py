"""Resizing with built-in ops that have second derivatives, and Keras' layer."""

import keras
import numpy as np
import tensorflow as tf

image = tf.constant(np.linspace(0.1, 0.9, 9).reshape(1, 3, 3, 1), tf.float32)


def penalty_gradient(resize):
    """d/dx of |dD/dx|^2 for the critic D(x) = sum(sin(resize(x)))."""
    with tf.GradientTape() as outer:
        outer.watch(image)
        with tf.GradientTape() as inner:
            inner.watch(image)
            critic = tf.reduce_sum(tf.sin(resize(image)))
        penalty = tf.reduce_sum(inner.gradient(critic, image) ** 2)
    g = outer.gradient(penalty, image)
    return None if g is None else g.numpy().reshape(9)[:3].round(4)


for mode in ("nearest", "bilinear"):
    layer = keras.layers.UpSampling2D(2, interpolation=mode)
    print(f"UpSampling2D({mode!r}): second order {penalty_gradient(layer)}")


def repeat2(x):  # nearest, factor 2: every pixel twice along each axis
    return tf.repeat(tf.repeat(x, 2, axis=1), 2, axis=2)


same = np.array_equal(repeat2(image), tf.image.resize(image, [6, 6], "nearest"))
print(f"tf.repeat: same values as resize nearest x2: {same}")
print(f"  second order {penalty_gradient(repeat2)}")


def matrix(n, m, method, antialias):  # the 1-D resize as an m x n matrix
    eye = tf.reshape(tf.eye(n), [n, n, 1, 1])
    resized = tf.image.resize(eye, [m, 1], method, antialias=antialias)
    return tf.reshape(resized, [n, m])


def resize_by_matmul(x, size=(5, 5), method="bilinear", antialias=False):
    rows = matrix(x.shape[1], size[0], method, antialias)
    cols = matrix(x.shape[2], size[1], method, antialias)
    return tf.einsum("ih,jw,bijc->bhwc", rows, cols, x)


for method, antialias in [("bilinear", False), ("area", False)]:
    builtin = tf.image.resize(image, [5, 5], method, antialias=antialias)
    matmul = resize_by_matmul(image, method=method, antialias=antialias)
    print(
        f"matmul form: largest difference from resize {method}, "
        f"antialias={antialias}: {np.abs(matmul - builtin).max():.0e}"
    )
print(f"  second order {penalty_gradient(resize_by_matmul)}")
