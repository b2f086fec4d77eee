"""log(1 + exp(x)) at x = 100: plain autodiff gives a nan gradient, the
docstring's custom gradient gives 1, but the value stays inf; softplus is
right."""

import tensorflow as tf


def plain(x):
    return tf.math.log(1 + tf.exp(x))  # exp(100) is inf in float32


@tf.custom_gradient
def log1pexp(x):  # the tf.custom_gradient docstring's example
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.constant(100.0)
for f in [plain, log1pexp, tf.math.softplus]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    print(f"{f.__name__:>8}: value {y.numpy()}, gradient {g.numpy()}")
