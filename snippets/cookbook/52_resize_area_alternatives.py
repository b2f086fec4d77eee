"""Shrinking by an integer factor: avg_pool2d is area resizing, every order."""

import keras
import numpy as np
import tensorflow as tf

image = tf.constant(np.linspace(0.1, 0.9, 24).reshape(1, 4, 6, 1), tf.float32)


def penalty_gradient(resize):
    """d/dx of |dD/dx|^2 for the critic D(x) = sum(sin(resize(x)))."""
    with tf.GradientTape() as outer:
        outer.watch(image)
        with tf.GradientTape() as inner:
            inner.watch(image)
            critic = tf.reduce_sum(tf.sin(resize(image)))
        penalty = tf.reduce_sum(inner.gradient(critic, image) ** 2)
    return outer.gradient(penalty, image).numpy().ravel()[:4].round(4)


# the exact one: 2 L^T diag(-sin y) L L^T cos y, y = L x, L the 2 x 2 means
L = np.kron(np.kron(np.eye(2), [0.5, 0.5]), np.kron(np.eye(3), [0.5, 0.5]))
v = image.numpy().ravel().astype(np.float64)
want = 2 * L.T @ (-np.sin(L @ v) * (L @ (L.T @ np.cos(L @ v))))
print(f"4x6 -> 2x3, reference second order {want[:4].round(4)}")
area = tf.image.resize(image, [2, 3], "area")


def pool(x):  # the mean of each 2 x 2 block
    return tf.nn.avg_pool2d(x, ksize=2, strides=2, padding="VALID")


for name, f in [
    ("avg_pool2d", pool),
    ("AveragePooling2D(2)", keras.layers.AveragePooling2D(2)),
]:
    same = np.allclose(f(image), area, rtol=0, atol=1e-6)
    print(f"{name}: same values as resize area: {same}")
    print(f"  second order {penalty_gradient(f)}")


def frozen(x):  # what the error message suggests: no error, and no gradient
    return tf.stop_gradient(tf.image.resize(x, [2, 3], "area"))


with tf.GradientTape() as tape:
    tape.watch(image)
    y = tf.reduce_sum(frozen(image))
print(
    f"tf.stop_gradient around resize area: gradient {tape.gradient(y, image)}"
)
