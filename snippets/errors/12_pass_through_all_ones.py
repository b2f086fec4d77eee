"""A pass-through gradient "returns all ones": dy is all ones when the target is y itself."""

import tensorflow as tf


@tf.custom_gradient
def sign_pass_through(x):
    def grad(dy):
        return dy  # straight-through: hand dy back unchanged

    return tf.sign(x), grad


x = tf.constant([-0.5, 0.2, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = sign_pass_through(x)
    loss = tf.reduce_sum((y - tf.constant([1.0, 1.0, 0.0])) ** 2)
print("target y:    ", tape.gradient(y, x).numpy())  # dy defaults to ones
print("target loss: ", tape.gradient(loss, x).numpy())  # dy = 2 * (y - t)
