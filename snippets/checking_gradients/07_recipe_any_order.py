"""A recipe to copy: check a custom gradient up to any order."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def derivative(f):
    """Return a function that computes d/dx sum(f(x)) with a GradientTape."""

    def df(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    return df


def check_gradients(f, x, max_order, tolerance=1e-6):
    x = tf.constant(x, dtype=tf.float64)
    g = f
    for order in range(1, max_order + 1):
        theoretical, numerical = tf.test.compute_gradient(g, [x])
        error = np.max(np.abs(theoretical[0] - numerical[0]))
        verdict = "OK" if error < tolerance else "MISMATCH"
        magnitude = f"1e{np.floor(np.log10(error)):+.0f}"
        print(f"order {order}: max error of order {magnitude} {verdict}")
        g = derivative(g)  # the next order checks the derivative of this one


check_gradients(log1pexp, [-2.0, 0.0, 3.0], max_order=3)
