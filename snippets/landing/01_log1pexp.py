"""log1pexp at x = 100: the naive gradient is nan, the custom one is 1.0."""

import tensorflow as tf


def log1pexp_naive(x):
    return tf.math.log(1 + tf.exp(x))


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)  # computed once in the forward pass, kept for grad

    def grad(dy):  # dy = d(target)/d(output), supplied by TensorFlow later
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.constant(100.0)
for name, f in [("naive", log1pexp_naive), ("custom", log1pexp)]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    print(
        f"{name:>6}: value = {y.numpy()}, "
        f"gradient = {tape.gradient(y, x).numpy()}"
    )
