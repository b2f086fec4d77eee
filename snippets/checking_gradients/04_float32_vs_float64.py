"""Why the check runs in float64: the same correct gradient, two precisions."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


for dtype in (tf.float32, tf.float64):
    x = tf.constant([-2.0, 0.0, 3.0], dtype=dtype)
    theoretical, numerical = tf.test.compute_gradient(log1pexp, [x])
    error = np.max(np.abs(theoretical[0] - numerical[0]))
    magnitude = f"1e{np.floor(np.log10(error)):+.0f}"
    print(f"{dtype.name}: max error of order {magnitude}")
