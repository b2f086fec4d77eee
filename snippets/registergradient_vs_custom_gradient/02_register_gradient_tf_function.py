"""RegisterGradient + gradient_override_map inside tf.function."""

import tensorflow as tf


@tf.RegisterGradient("StraightThroughRound")
def _straight_through_round_grad(op, dy):
    return dy


w = tf.constant([1.0, 2.0])


@tf.function
def rounded(x):
    g = tf.compat.v1.get_default_graph()  # here: the function's own graph
    with g.gradient_override_map({"Round": "StraightThroughRound"}):
        return tf.round(x)


@tf.function
def grad_with_tf_gradients(x):
    loss = tf.reduce_sum(w * rounded(x))
    return tf.gradients(loss, x)[0]


x = tf.constant([0.2, 1.7])
print("tf.gradients inside tf.function: ", grad_with_tf_gradients(x).numpy())

with tf.GradientTape() as tape:  # an eager tape; the override is inside
    tape.watch(x)  # the tf.function it calls
    loss = tf.reduce_sum(w * rounded(x))
print("GradientTape outside tf.function:", tape.gradient(loss, x).numpy())
