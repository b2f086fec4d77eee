"""Straight-through estimator for tf.sign (BinaryNet's rule), proven."""

import tensorflow as tf


# --8<-- [start:recipe]
@tf.custom_gradient
def binarize(x):
    """tf.sign(x) forwards; backwards dy where |x| <= 1, else 0."""

    def grad(dy):
        # sign's derivative is 0 almost everywhere: pretend it is the
        # identity on [-1, 1] (the derivative of tf.clip_by_value(x, -1, 1))
        return dy * tf.cast(tf.abs(x) <= 1.0, dy.dtype)

    return tf.sign(x), grad


# --8<-- [end:recipe]

x = tf.constant([-2.0, -0.5, 0.3, 1.5])
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(3.0 * binarize(x))  # dy = 3 for every element
print(
    "value:", binarize(x).numpy(), "gradient:", tape.gradient(loss, x).numpy()
)
