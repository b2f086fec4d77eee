"""A keyword argument to a custom-gradient function is refused inside tf.function."""

import tensorflow as tf


@tf.custom_gradient
def scale(x, factor=2.0):
    def grad(dy):
        return dy * factor

    return x * factor, grad


@tf.function
def model(x):
    # keyword argument: fine in eager mode, refused here
    return scale(x, factor=3.0)


try:
    model(tf.constant(1.0))
except ValueError as e:
    last_line = str(e).strip().splitlines()[-1].strip()
    print(f"{type(e).__name__}: {last_line.removeprefix('ValueError: ')}")
