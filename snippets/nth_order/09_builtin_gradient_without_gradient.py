"""A built-in op whose gradient op has no gradient: the next order is None."""

import tensorflow as tf


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


def f(x):  # quadratic in x: its second derivative is not zero
    return tf.reduce_sum(tf.image.resize(x, [3, 3], "bilinear") ** 2)


x = tf.reshape(tf.constant([1.0, 2.0, 3.0, 4.0]), [1, 2, 2, 1])
first = nth_derivative(f, x, 1)
print("order 1:", tf.reshape(first, [-1]).numpy().round(2))
print("order 2:", nth_derivative(f, x, 2))  # ResizeBilinearGrad has no gradient
