"""Why the check runs in float64, and why its tolerance is relative."""

import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


@tf.custom_gradient
def exp(x):  # a correct gradient too, for a function that grows faster
    e = tf.exp(x)
    return e, lambda dy: dy * e


TOLERANCE = {  # relative to the derivative's size, plus a floor near zero
    tf.float32: (1e-3, 1e-5),
    tf.float64: (1e-5, 1e-8),
}
for f in (log1pexp, exp):
    for dtype in (tf.float32, tf.float64):
        x = tf.constant([-2.0, 0.0, 3.0], dtype=dtype)
        theoretical, numerical = tf.test.compute_gradient(f, [x])
        error = np.max(np.abs(theoretical[0] - numerical[0]))
        magnitude = f"1e{np.floor(np.log10(error)):+.0f}"
        rtol, atol = TOLERANCE[dtype]
        ok = np.allclose(numerical[0], theoretical[0], rtol=rtol, atol=atol)
        print(
            f"{f.__name__:>8}, {dtype.name}: max error of order {magnitude}, "
            f"below 1e-6: {error < 1e-6!s:5}, rtol={rtol:.0e}: {ok}"
        )
