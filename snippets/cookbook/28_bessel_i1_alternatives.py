"""exp(|x|) * bessel_i1e(x): a right first derivative of I1 at 0, no second."""

import tensorflow as tf


def i1_from_i1e(x):
    """I1(x) = exp(|x|) * I1e(x); bessel_i1e's own gradient is right at 0."""
    return tf.exp(tf.abs(x)) * tf.math.bessel_i1e(x)


def derivatives(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x)
    return y, first, outer.gradient(first, x)


x, h, i1 = tf.constant([0.0, 1.0], tf.float64), 1e-4, tf.math.bessel_i1
first = (i1(x + h) - i1(x - h)) / (2 * h)  # the reference: central differences
second = (i1(x + h) - 2 * i1(x) + i1(x - h)) / h**2
print(
    f"    reference: first {first.numpy().round(4)}, "
    f"second {second.numpy().round(4)}"
)
for f in (tf.math.bessel_i1, i1_from_i1e):
    y, first, second = derivatives(f, x)
    print(
        f"{f.__name__:>13}: value {y.numpy().round(4)}, "
        f"first {first.numpy().round(4)}, second {second.numpy().round(4)}"
    )
compiled = tf.function(
    lambda x: derivatives(i1_from_i1e, x)[1], jit_compile=True
)
print(f"  i1_from_i1e, first, jit_compile: {compiled(x).numpy().round(4)}")
