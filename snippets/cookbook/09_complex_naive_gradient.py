"""A custom gradient for a complex function, written as dy * f'(z): wrong."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def square_naive(z):
    return z * z, lambda dy: dy * 2.0 * z  # dy * f'(z): the textbook rule


z = tf.constant(1.0 + 2.0j, tf.complex128)
for name, f in [("built-in z * z", lambda z: z * z), ("naive", square_naive)]:
    with tf.GradientTape() as tape:
        tape.watch(z)
        loss = tf.abs(f(z)) ** 2  # a real loss: |z**2|**2 = |z|**4
    gradient = tape.gradient(loss, z)
    after = tf.abs(f(z - 0.01 * gradient)) ** 2  # one step of gradient descent
    print(
        f"{name:>14}: gradient {gradient.numpy()}, "
        f"loss {loss.numpy():.2f} -> {after.numpy():.2f} after one step"
    )


def loss(x, y):
    return abs((x + 1j * y) ** 2) ** 2


h = 1e-6  # float64 reference: dL/dx + i dL/dy by central differences
dx = (loss(1 + h, 2) - loss(1 - h, 2)) / (2 * h)
dy = (loss(1, 2 + h) - loss(1, 2 - h)) / (2 * h)
print(f"{'reference':>14}: gradient {np.round(dx + 1j * dy, 6)}")
