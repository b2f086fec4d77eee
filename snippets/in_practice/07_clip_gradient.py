"""Clip the gradient flowing back through a point, leave the forward value alone."""

import tensorflow as tf


@tf.custom_gradient
def clip_gradient_norm(x):
    def grad(dy):
        # the gradient passed back has norm at most 1
        return tf.clip_by_norm(dy, 1.0)

    return tf.identity(x), grad


x = tf.constant([3.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    plain = tf.reduce_sum(x**2)  # gradient 2x = [6, 8], norm 10
    # same value, clipped gradient
    clipped = tf.reduce_sum(clip_gradient_norm(x) ** 2)
print(f"values:   {plain.numpy():.1f} and {clipped.numpy():.1f}")
print(f"plain:    {tape.gradient(plain, x).numpy()}")
print(f"clipped:  {tape.gradient(clipped, x).numpy()}")
