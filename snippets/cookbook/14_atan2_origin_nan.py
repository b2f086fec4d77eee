"""tf.math.atan2 at (0, 0) and next to it: the gradient is nan or inf."""

import numpy as np
import tensorflow as tf

POINTS = [(0.0, 0.0), (1e-30, 0.0), (1.0, 1.0)]  # (y, x)


def central_difference(y, x):
    """float64 (d/dy, d/dx), the step scaled to the point's size."""
    h = 1e-6 * max(abs(y), abs(x))
    return (
        (np.arctan2(y + h, x) - np.arctan2(y - h, x)) / (2 * h),
        (np.arctan2(y, x + h) - np.arctan2(y, x - h)) / (2 * h),
    )


for y0, x0 in POINTS:
    if (y0, x0) == (0.0, 0.0):
        print("(y, x) = (0, 0): no derivative; the convention (0, 0)")
    else:
        dy, dx = central_difference(y0, x0)
        print(f"(y, x) = ({y0:g}, {x0:g}): reference ({dy:g}, {dx:g})")
    for dtype in (tf.float32, tf.float64):
        y, x = tf.constant(y0, dtype), tf.constant(x0, dtype)
        with tf.GradientTape() as tape:
            tape.watch([y, x])
            angle = tf.math.atan2(y, x)
        dy, dx = tape.gradient(angle, [y, x])
        print(
            f"  {dtype.name}: angle {angle.numpy():.4f}, "
            f"gradient ({dy.numpy():g}, {dx.numpy():g})"
        )
