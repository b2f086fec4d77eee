"""Inside tf.function: too few and too many gradients both say "too few"."""

import tensorflow as tf


@tf.custom_gradient
def too_few(x, y):
    def grad(dy):
        return dy * y  # one gradient for two inputs

    return x * y, grad


@tf.custom_gradient
def too_many(x, y):
    def grad(dy):
        return dy * y, dy * x, dy  # three gradients for two inputs

    return x * y, grad


def gradients_in_tf_function(f):
    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = f(x, y)
        return tape.gradient(z, [x, y])

    return step(tf.constant(2.0), tf.constant(3.0))


for f in [too_few, too_many]:
    try:
        gradients_in_tf_function(f)
    except tf.errors.InternalError as e:
        # the last line is the message, without TF's "in user code" trace
        last_line = str(e).strip().splitlines()[-1].strip()
        message = last_line.removeprefix("InternalError: ")
        print(f"{f.__name__}: {type(e).__name__}: {message}")
