"""The gradient of a NumPy solver by implicit differentiation, proven."""

import numpy as np
import tensorflow as tf


# --8<-- [start:recipe]
def solve(p):
    """The external solver (NumPy, float64): the root r of r**3 + p*r = 1,
    by Newton's method. Replace it with scipy.optimize.fsolve or your own."""
    r = np.ones_like(p)
    for _ in range(50):
        r = r - (r**3 + p * r - 1) / (3 * r**2 + p)
    return r


def equation(r, p):
    """The same equation in TensorFlow: solve(p) returns r with g(r, p) = 0."""
    return r**3 + p * r - 1


@tf.custom_gradient
def root(p):
    r = tf.numpy_function(solve, [p], p.dtype, stateful=False)
    r.set_shape(p.shape)

    def grad(dr):
        # implicit function theorem: dr/dp = -(dg/dr)^-1 dg/dp at the root
        r_ = root(p)  # not the closure's r: keeps order 2 right
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([r_, p])
            residual = equation(r_, p)
        dg_dr = tape.jacobian(residual, r_)
        w = tf.linalg.solve(tf.transpose(dg_dr), dr[:, None])[:, 0]
        return -tape.gradient(residual, p, output_gradients=w)

    return r, grad


# --8<-- [end:recipe]

p = tf.constant([1.0, 4.0], tf.float64)
with tf.GradientTape() as tape:
    tape.watch(p)
    r = root(p)
print(
    "root r:",
    r.numpy().round(6),
    " dr/dp:",
    tape.gradient(r, p).numpy().round(6),
)
