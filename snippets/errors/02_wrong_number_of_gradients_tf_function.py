"""Inside tf.function: "too few" either way; a variable read adds a slot."""

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


w = tf.Variable(4.0)


@tf.custom_gradient
def too_few_with_variable(x, y):  # reads w: one more slot
    def grad(dy, variables=None):
        return dy * y * w, [dy * x * y]  # one input gradient, one for w

    return x * y * w, grad


def gradients_in_tf_function(f):
    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = f(x, y)
        return tape.gradient(z, [x, y])

    return step(tf.constant(2.0), tf.constant(3.0))


for f in [too_few, too_many, too_few_with_variable]:
    try:
        gradients_in_tf_function(f)
    except tf.errors.InternalError as e:
        # the last line is the message, without TF's "in user code" trace
        last_line = str(e).strip().splitlines()[-1].strip()
        message = last_line.removeprefix("InternalError: ")
        print(f"{f.__name__}: {type(e).__name__}: {message}")
