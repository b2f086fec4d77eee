"""Check a custom gradient against finite differences (compute_gradient)."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))  # d/dx log(1 + e^x) = sigmoid(x)

    return tf.math.log(1 + e), grad


def show(title, jacobian):
    print(title)
    for row in jacobian:
        print("   " + "  ".join(f"{v + 0.0:7.4f}" for v in row))


x = tf.constant([-2.0, 0.0, 3.0], dtype=tf.float64)  # float64: see below
theoretical, numerical = tf.test.compute_gradient(log1pexp, [x])
show("theoretical (from your grad):", theoretical[0])
show("numerical (finite differences):", numerical[0])

error = np.max(np.abs(theoretical[0] - numerical[0]))
tolerance = 1e-6
print(
    f"max error: order 1e{np.floor(np.log10(error)):+.0f}",
    "OK" if error < tolerance else "WRONG GRADIENT",
)
