"""Forward mode differentiates the forward ops when it can see into them."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):  # the tf.custom_gradient docstring's example
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))  # stable at x = 100

    return tf.math.log(1 + e), grad


def reverse_mode(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def forward_mode(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = f(x)
    return acc.jvp(y)


x = tf.constant(100.0)  # the true derivative is 1.0
runs = {
    "reverse mode (GradientTape)": lambda: reverse_mode(log1pexp, x),
    "forward mode, eager": lambda: forward_mode(log1pexp, x),
    "forward mode, inside tf.function": lambda: tf.function(
        lambda x: forward_mode(log1pexp, x)
    )(x),
    "forward mode, around tf.function": lambda: forward_mode(
        tf.function(log1pexp), x
    ),
}
for name, run in runs.items():
    print(f"{name:33} {float(run())}")
