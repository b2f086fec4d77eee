"""Straight-through estimator: sign() forwards, dy passed through (where |x| <= 1) backwards."""

import tensorflow as tf


@tf.custom_gradient
def binarize(x):
    def grad(dy):
        # sign's derivative is 0 almost everywhere; pretend it is the identity
        # on [-1, 1]
        return dy * tf.cast(tf.abs(x) <= 1.0, dy.dtype)

    return tf.sign(x), grad


x = tf.constant([-2.0, -0.5, 0.3, 1.5])
for name, f in [("tf.sign", tf.sign), ("binarize", binarize)]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(3.0 * f(x))  # dy = 3 for every element
    print(
        f"{name:>8}: value {f(x).numpy()}, gradient "
        f"{tape.gradient(loss, x).numpy()}"
    )
