"""A deliberately wrong custom gradient (a missing "1 -"), caught."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp_wrong(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 / (1 + e))  # BUG: this is sigmoid(-x), not sigmoid(x)

    return tf.math.log(1 + e), grad


x = tf.constant([-2.0, 0.0, 3.0], dtype=tf.float64)
theoretical, numerical = tf.test.compute_gradient(log1pexp_wrong, [x])
diagonal_t = np.diag(theoretical[0])
diagonal_n = np.diag(numerical[0])

for xi, t, n in zip(x.numpy(), diagonal_t, diagonal_n):
    gap = abs(t - n)
    print(
        f"x = {xi:4.1f}: theoretical {t:.4f}, numerical {n:.4f},",
        f"gap {gap:.4f}",
    )

error = np.max(np.abs(theoretical[0] - numerical[0]))
tolerance = 1e-6
print(
    f"max error: {error:.4f}", "OK" if error < tolerance else "WRONG GRADIENT"
)
