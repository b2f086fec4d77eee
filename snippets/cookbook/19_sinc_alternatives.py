"""Two sincs without a custom gradient: the double where, and a series."""

import numpy as np
import tensorflow as tf


def sinc_double_where(x):
    """The fix proposed for tf.experimental.numpy.sinc: no 0 / 0 at 0."""
    t = np.pi * x
    zero = tf.equal(t, 0)
    safe = tf.where(zero, tf.ones_like(t), t)
    return tf.where(zero, tf.ones_like(t), tf.sin(safe) / safe)


def sinc_series(x):
    """Its Taylor series where |pi x| < 0.5, differentiated by autodiff."""
    t = np.pi * x
    small = tf.abs(t) < 0.5
    safe = tf.where(small, tf.ones_like(t), t)
    ts = tf.where(small, t, tf.zeros_like(t))  # the series never sees a large t
    series = tf.zeros_like(t)
    for n in (13, 11, 9, 7, 5, 3, 1):  # 1 - t^2/3! + t^4/5! - ... + t^12/13!
        series = series * (-ts * ts) + 1 / np.prod(np.arange(1.0, n + 1))
    return tf.where(small, series, tf.sin(safe) / safe)


print("exact: gradient [0, -0.0032899], second derivative at 0: -3.2899")
for name, sinc in [
    ("double where", sinc_double_where),
    ("series", sinc_series),
]:
    for dtype in (tf.float32, tf.float64):
        x = tf.constant([0.0, 1e-3], dtype)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = sinc(x)
            slope = inner.gradient(y, x)
        second = outer.gradient(slope, x)[0]
        print(
            f"{name:>12} {dtype.name}: gradient [{slope[0]:.5g}, "
            f"{slope[1]:.5g}], second derivative at 0: {second:.5g}"
        )
