"""Second derivatives of tf.reduce_prod where a factor is zero."""

import tensorflow as tf


def reported(x):  # tensorflow#44556: NaN in TensorFlow 2.3
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_prod(tf.constant([2.0, 0.0]) * x * x)
        first = inner.gradient(y, x)
    return first, outer.jacobian(first, x)


def mixed(x, y):  # tensorflow#61117: d2z/dxdy of z = x * y is 1
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = tf.reduce_prod(tf.stack([x, y]))
        first = inner.gradient(z, x)
    return first, outer.gradient(first, y)


x, y = tf.constant([0.0]), tf.constant(1.0)
for mode, run_reported, run_mixed in [
    ("eager", reported, mixed),
    ("tf.function", tf.function(reported), tf.function(mixed)),
]:
    first, second = run_reported(x)
    print(
        f"{mode:>11}: reduce_prod([2, 0] * x * x) at x = 0:"
        f" first {first.numpy()}, second {second.numpy().ravel()}"
    )
    first, second = run_mixed(tf.constant(0.0), y)
    print(
        f"{mode:>11}: reduce_prod([x, y]) at x = 0, y = 1:"
        f" dz/dx {float(first)}, d2z/dxdy {float(second)}"
    )
