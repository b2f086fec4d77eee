"""Second derivatives of tf.reduce_prod where a factor is zero."""

import functools

import tensorflow as tf


def reported(x):  # tensorflow#44556: NaN in TensorFlow 2.3
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_prod(tf.constant([2.0, 0.0]) * x * x)
        first = inner.gradient(y, x)
    return outer.jacobian(first, x)


def hessian(product, x):  # tensorflow#61117: the mixed derivatives
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = product(x)
        first = inner.gradient(y, x)
    return outer.jacobian(first, x)


def multiplied(x):  # the fix: the same product, one tf.multiply at a time
    return functools.reduce(tf.multiply, tf.unstack(x))


x = tf.constant([0.0, 2.0])  # the true Hessian of x0 * x1 is [[0, 1], [1, 0]]
for mode, wrap in [("eager", lambda f: f), ("tf.function", tf.function)]:
    second = wrap(reported)(tf.constant([0.0])).numpy().ravel()
    print(f"{mode}: reduce_prod([2, 0] * x * x) at x = 0: second {second}")
    for product in [tf.reduce_prod, multiplied]:
        h = wrap(hessian)(product, x).numpy().tolist()
        print(f"{mode}: Hessian of {product.__name__}(x) at {[0, 2]}: {h}")
