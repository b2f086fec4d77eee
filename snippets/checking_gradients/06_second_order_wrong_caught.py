"""A grad computed in NumPy: first order passes, second order fails."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp_numpy(x):
    e = tf.exp(x)

    def grad(dy):
        # BUG: NumPy work is invisible to the tape
        sigmoid = 1 - 1 / (1 + e.numpy())
        return dy * sigmoid

    return tf.math.log(1 + e), grad


def first_derivative(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp_numpy(x)
    return tape.gradient(y, x)


def max_error(f, x):
    theoretical, numerical = tf.test.compute_gradient(f, [x])
    return np.max(np.abs(theoretical[0] - numerical[0]))


x = tf.constant([-2.0, 0.0, 3.0], dtype=tf.float64)
first = max_error(log1pexp_numpy, x)
print(f"first order:  max error of order 1e{np.floor(np.log10(first)):+.0f}")
print(f"second order: max error {max_error(first_derivative, x):.4f}")
theoretical, _ = tf.test.compute_gradient(first_derivative, [x])
seen = "  ".join(f"{v + 0.0:.4f}" for v in np.diag(theoretical[0]))
print("second derivative the tape sees:", seen)
