"""A grad computed through NumPy: first order passes, the second-order check catches it."""
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp_numpy(x):
    e = tf.exp(x)

    def grad(dy):
        sigmoid = 1 - 1 / (1 + e.numpy())  # BUG for 2nd order: NumPy leaves the tape
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
print(f"first order:  max error of order 1e{np.floor(np.log10(max_error(log1pexp_numpy, x))):+.0f}")
print(f"second order: max error {max_error(first_derivative, x):.4f}")
theoretical, _ = tf.test.compute_gradient(first_derivative, [x])
print("second derivative the tape sees:", "  ".join(f"{v + 0.0:.4f}" for v in np.diag(theoretical[0])))
