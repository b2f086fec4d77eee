"""A NumPy solver inside tf.numpy_function: the gradient through it is None."""

import numpy as np
import tensorflow as tf


def solve(p):
    """The root r of r**3 + p*r - 1 = 0 by Newton's method (NumPy, float64):
    a stand-in for scipy.optimize.fsolve or any other external solver."""
    r = np.ones_like(p)
    for _ in range(50):
        r = r - (r**3 + p * r - 1) / (3 * r**2 + p)
    return r


p = tf.constant([1.0, 4.0], tf.float64)
with tf.GradientTape() as tape:
    tape.watch(p)
    r = tf.numpy_function(solve, [p], tf.float64)
print("root r:", r.numpy().round(6))
print("dr/dp through numpy_function:", tape.gradient(r, p))

h = 1e-6  # the float64 reference: a central difference of the solver itself
reference = (solve(p.numpy() + h) - solve(p.numpy() - h)) / (2 * h)
print("dr/dp by central differences:", reference.round(6))
