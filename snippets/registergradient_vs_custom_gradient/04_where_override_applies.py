"""Where a RegisterGradient override applies, vs tf.custom_gradient."""

import tensorflow as tf


@tf.RegisterGradient("StraightThroughRound")
def _straight_through_round_grad(op, dy):
    return dy


def round_override(x):  # RegisterGradient way: override op type "Round"
    g = tf.compat.v1.get_default_graph()
    with g.gradient_override_map({"Round": "StraightThroughRound"}):
        return tf.round(x)


@tf.custom_gradient
def round_ste(x):  # custom_gradient way
    return tf.round(x), lambda dy: dy


def loss(fn, x):  # straight-through: dL/dx = [1, 2]
    return tf.reduce_sum(tf.constant([1.0, 2.0]) * fn(x))


def eager_tape(fn, x):
    with tf.GradientTape() as t:
        t.watch(x)
        value = loss(fn, x)
    return t.gradient(value, x)


def tape_outside_function(fn, x):
    return eager_tape(tf.function(fn), x)


def tape_outside_run_eagerly(fn, x):  # the debugging switch: no graph at all
    tf.config.run_functions_eagerly(True)
    try:
        return tape_outside_function(fn, x)
    finally:
        tf.config.run_functions_eagerly(False)


def tape_inside_function(fn, x):
    return tf.function(lambda x: eager_tape(fn, x))(x)


def tape_inside_around_nested(fn, x):  # the op is built in a nested function
    return tf.function(lambda x: eager_tape(tf.function(fn), x))(x)


def tape_in_tf1_graph(fn, x):
    with tf.Graph().as_default():
        x = tf.constant(x.numpy())
        dx = eager_tape(fn, x)
        if dx is None:
            return None
        with tf.compat.v1.Session() as sess:
            return sess.run(dx)


def tf_gradients_in_function(fn, x):
    return tf.function(lambda x: tf.gradients(loss(fn, x), x)[0])(x)


def tf_gradients_in_graph(fn, x):
    with tf.Graph().as_default():
        x = tf.constant(x.numpy())
        dx = tf.gradients(loss(fn, x), x)[0]
        if dx is None:
            return None
        with tf.compat.v1.Session() as sess:
            return sess.run(dx)


def cell(dx):
    if dx is None:
        return "IGNORED (None)"
    return f"applied {tf.constant(dx).numpy()}"


x = tf.constant([0.2, 1.7])
print(f"{'context':26}| {'override map':16}| tf.custom_gradient")
print("-" * 26 + "|" + "-" * 17 + "|" + "-" * 19)
for ctx in [
    eager_tape,
    tape_outside_function,
    tape_inside_function,
    tape_inside_around_nested,
    tape_in_tf1_graph,
    tf_gradients_in_function,
    tf_gradients_in_graph,
    tape_outside_run_eagerly,
]:
    override, custom = cell(ctx(round_override, x)), cell(ctx(round_ste, x))
    print(f"{ctx.__name__:26}| {override:16}| {custom}")
