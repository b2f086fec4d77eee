"""Check the variables part of grad(dy, variables) with finite differences."""

import numpy as np
import tensorflow as tf

w = tf.Variable([0.5, -1.0, 2.0], dtype=tf.float64)


@tf.custom_gradient
def scaled_log1pexp(x):
    z = w * x  # reads the variable w
    e = tf.exp(z)

    def grad(dy, variables):
        s = 1 - 1 / (1 + e)  # sigmoid(w * x)
        return dy * s * w, [dy * s * x]  # d/dx, and d/dw for variables[0]

    return tf.math.log(1 + e), grad


def numerical_jacobian(f, variable, delta=1 / 1024):
    """Central differences: nudge one element of the variable at a time."""
    original = variable.numpy()
    columns = []
    for j in range(original.size):
        step = np.zeros_like(original)
        step.flat[j] = delta
        variable.assign(original + step)
        plus = f().numpy()
        variable.assign(original - step)
        minus = f().numpy()
        columns.append(((plus - minus) / (2 * delta)).ravel())
    variable.assign(original)
    return np.stack(columns, axis=1)


x = tf.constant([1.0, -1.0, 0.5], dtype=tf.float64)
with tf.GradientTape() as tape:
    y = scaled_log1pexp(x)
theoretical = tape.jacobian(y, w).numpy()  # from the variables part of grad
numerical = numerical_jacobian(lambda: scaled_log1pexp(x), w)

print("w.r.t. w, theoretical diagonal:", np.diag(theoretical).round(4) + 0.0)
print("w.r.t. w, numerical diagonal:  ", np.diag(numerical).round(4) + 0.0)
error = np.max(np.abs(theoretical - numerical))
print(
    f"max error: order 1e{np.floor(np.log10(error)):+.0f}",
    "OK" if error < 1e-6 else "WRONG GRADIENT",
)
