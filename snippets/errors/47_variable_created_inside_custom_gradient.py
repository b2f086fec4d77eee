"""A tf.Variable created inside a custom-gradient function as scratch space."""

import tensorflow as tf


@tf.custom_gradient
def with_scratch_variable(x):
    scratch = tf.Variable(tf.zeros([3]))  # temporary storage
    scratch.assign(2.0 * x)

    def grad(dy):
        return 2.0 * dy

    return tf.reduce_sum(scratch), grad


@tf.custom_gradient
def with_untrainable_scratch(x):
    scratch = tf.Variable(tf.zeros([3]), trainable=False)  # not a weight
    scratch.assign(2.0 * x)

    def grad(dy):
        return 2.0 * dy * tf.ones_like(x)

    return tf.reduce_sum(scratch), grad


@tf.custom_gradient
def with_tensors(x):
    parts = tf.TensorArray(tf.float32, size=3)  # tensors, not variables
    for i in range(3):
        parts = parts.write(i, 2.0 * x[i])

    def grad(dy):
        return 2.0 * dy * tf.ones_like(x)

    return tf.reduce_sum(parts.stack()), grad


def gradient(f):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for f in [with_scratch_variable, with_untrainable_scratch, with_tensors]:
    for mode, run in MODES:
        label = f"{f.__name__:<24} {mode:>11}"
        try:
            print(f"{label}: {run(gradient, f).numpy()}")
        except (TypeError, ValueError) as e:
            message = str(e).strip().splitlines()[-1].strip().split(": [<")[0]
            message = message.removeprefix(f"{type(e).__name__}: ")
            if isinstance(
                e, TypeError
            ):  # the rest heads the entry on variables
                message = message.split(",")[0] + ", ..."
            else:  # the first sentence; the rest says where to read more
                message = message.split(". ")[0] + ". ..."
            print(f"{label}: {type(e).__name__}: {message}")
