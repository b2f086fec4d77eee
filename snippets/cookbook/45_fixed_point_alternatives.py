"""Two shortcuts: the last step's gradient only; a closed form instead."""

import numpy as np
import tensorflow as tf


def solution(a):  # the fixed point z = cos(a z), iterated, no tape
    z = tf.zeros_like(a)
    for _ in range(200):
        z = tf.cos(a * z)
    return z


a, h = tf.constant([0.5, 1.0], tf.float64), 1e-6
z = solution(a)
with tf.GradientTape() as tape:  # only the last step, z taken as constant
    tape.watch(a)
    last = tf.cos(a * tf.stop_gradient(z))
print(f"last step only: dz/da {tape.gradient(last, a).numpy().round(6)}")
reference = (solution(a + h) - solution(a - h)) / (2 * h)
print(f"reference:      dz/da {reference.numpy().round(6)}")

# a linear fixed point z = A z + a has a closed form, z = (I - A)^-1 a
A = tf.constant([[0.3, -0.2], [0.4, 0.1]], tf.float64)


def closed_form(a):
    return tf.linalg.solve(tf.eye(2, dtype=a.dtype) - A, a[:, None])[:, 0]


with tf.GradientTape() as tape:
    tape.watch(a)
    loss = tf.reduce_sum(closed_form(a))
reference = [
    (
        tf.reduce_sum(closed_form(a + h * d))
        - tf.reduce_sum(closed_form(a - h * d))
    )
    / (2 * h)
    for d in np.eye(2)
]
print(
    f"linear, tf.linalg.solve: gradient {tape.gradient(loss, a).numpy().round(6)}"
)
print(f"  central differences:   {np.round(reference, 6)}")
