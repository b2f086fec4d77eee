"""The gradient of a fixed point z = cos(a z), backpropagated through steps."""

import numpy as np
import tensorflow as tf


def f(z, a):
    return tf.cos(a * z)


def solution(a):  # float64 NumPy, iterated until nothing moves
    z = np.zeros_like(a)
    for _ in range(5000):
        z = np.cos(a * z)
    return z


a, h = np.array([0.5, 1.0]), 1e-6
reference = (solution(a + h) - solution(a - h)) / (2 * h)
print(f"reference dz/da (central differences): {reference.round(6)}")
for steps in (10, 30, 100):

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float64)])
    def dz_da(a, steps=steps):
        with tf.GradientTape() as tape:
            tape.watch(a)
            z = tf.zeros_like(a)
            for _ in range(steps):  # every step is recorded on the tape
                z = f(z, a)
        return tape.gradient(z, a)

    gradient = dz_da(tf.constant(a)).numpy()
    graph = dz_da.get_concrete_function().graph
    sines = sum(op.type == "Sin" for op in graph.get_operations())
    print(
        f"{steps:3} steps: dz/da {gradient.round(6)}, "
        f"{sines} Sin ops in the backward pass"
    )
