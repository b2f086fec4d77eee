"""A grad that ignores dy passes a check on a scalar and fails on a vector."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp_no_dy(x):
    e = tf.exp(x)

    def grad(dy):
        return 1 - 1 / (1 + e)  # BUG: forgot to multiply by dy

    return tf.math.log(1 + e), grad


def max_error(x):
    theoretical, numerical = tf.test.compute_gradient(log1pexp_no_dy, [x])
    return np.max(np.abs(theoretical[0] - numerical[0]))


scalar = tf.constant(0.0, dtype=tf.float64)
vector = tf.constant([-2.0, 0.0, 3.0], dtype=tf.float64)
print(f"scalar x:     max error {max_error(scalar):.4f}")
print(f"vector of 3:  max error {max_error(vector):.4f}")

theoretical, _ = tf.test.compute_gradient(log1pexp_no_dy, [vector])
print("theoretical Jacobian for the vector (every row the same):")
print(np.round(theoretical[0], 4))
