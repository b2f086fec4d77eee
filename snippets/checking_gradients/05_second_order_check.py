"""Second-order check: compute_gradient on a function that returns the first derivative."""
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))  # built from TF ops on x: differentiable again

    return tf.math.log(1 + e), grad


def first_derivative(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return tape.gradient(y, x)  # runs our grad


x = tf.constant([-2.0, 0.0, 3.0], dtype=tf.float64)
theoretical, numerical = tf.test.compute_gradient(first_derivative, [x])
print("x:                          ", "  ".join(f"{v:6.1f}" for v in x.numpy()))
print("2nd derivative, theoretical:", "  ".join(f"{v:6.4f}" for v in np.diag(theoretical[0])))
print("2nd derivative, numerical:  ", "  ".join(f"{v:6.4f}" for v in np.diag(numerical[0])))

error = np.max(np.abs(theoretical[0] - numerical[0]))
print(f"max error: order 1e{np.floor(np.log10(error)):+.0f}",
      "OK" if error < 1e-6 else "WRONG SECOND DERIVATIVE")
