"""The Euclidean norm at zero, at tiny and at huge entries, and a reference."""

import math

import numpy as np
import tensorflow as tf


def value_and_gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.norm(x)
    return y.numpy(), tape.gradient(y, x).numpy()


def reference(x):
    """The norm by math.hypot (it scales), and float64 central differences
    of it with a step relative to the entries (0 at the zero vector)."""
    x = np.asarray(x, np.float64)
    h = 1e-6 * (np.max(np.abs(x)) or 1.0)
    steps = h * np.eye(len(x))
    slope = [
        (math.hypot(*(x + e)) - math.hypot(*(x - e))) / (2 * h) for e in steps
    ]
    return math.hypot(*x), np.array(slope)


for dtype, values in [
    (tf.float32, [0.0, 0.0, 0.0]),
    (tf.float32, [3e-20, 4e-20, 0.0]),
    (tf.float32, [3e20, 4e20, 0.0]),
    (tf.float64, [3e-160, 4e-160, 0.0]),
    (tf.float64, [3e160, 4e160, 0.0]),
    (tf.float16, [3e-4, 4e-4, 0.0]),
    (tf.float16, [300.0, 400.0, 0.0]),
]:
    x = tf.constant(values, dtype)
    value, gradient = value_and_gradient(x)
    want, slope = reference(x.numpy())
    print(
        f"{dtype.name} {values}:\n"
        f"  tf.norm {value:.4g}, gradient {gradient.round(4)}\n"
        f"  reference {want:.4g}, gradient {slope.round(4)}"
    )
