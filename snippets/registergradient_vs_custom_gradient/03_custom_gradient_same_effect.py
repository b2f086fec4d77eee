"""The same straight-through gradient with tf.custom_gradient."""

import tensorflow as tf


@tf.custom_gradient
def round_ste(x):
    def grad(dy):
        return dy  # dL/dx = dL/dy

    return tf.round(x), grad


w = tf.constant([1.0, 2.0])
x = tf.constant([0.2, 1.7])

with tf.GradientTape() as tape:  # eager mode
    tape.watch(x)
    loss = tf.reduce_sum(w * round_ste(x))
print("y = round_ste(x)            :", round_ste(x).numpy())
print("eager GradientTape          :", tape.gradient(loss, x).numpy())


@tf.function
def grad_in_function(x):
    with tf.GradientTape() as tape:  # a tape inside tf.function
        tape.watch(x)
        loss = tf.reduce_sum(w * round_ste(x))
    return tape.gradient(loss, x), tf.gradients(loss, x)[0]


by_tape, by_tf_gradients = grad_in_function(x)
print("tape inside tf.function     :", by_tape.numpy())
print("tf.gradients in tf.function :", by_tf_gradients.numpy())
