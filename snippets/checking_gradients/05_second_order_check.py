"""Second-order check: compute_gradient of a function returning f'(x)."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))  # TF ops on x: differentiable again

    return tf.math.log(1 + e), grad


def first_derivative(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return tape.gradient(y, x)  # runs our grad


x = tf.constant([-2.0, 0.0, 3.0], dtype=tf.float64)
theoretical, numerical = tf.test.compute_gradient(first_derivative, [x])


def row(values, fmt):
    return "  ".join(f"{v:{fmt}}" for v in values)


print("x:                          ", row(x.numpy(), "6.1f"))
print("2nd derivative, theoretical:", row(np.diag(theoretical[0]), "6.4f"))
print("2nd derivative, numerical:  ", row(np.diag(numerical[0]), "6.4f"))

error = np.max(np.abs(theoretical[0] - numerical[0]))
print(
    f"max error: order 1e{np.floor(np.log10(error)):+.0f}",
    "OK" if error < 1e-6 else "WRONG SECOND DERIVATIVE",
)
