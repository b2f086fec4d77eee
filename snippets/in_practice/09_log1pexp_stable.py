"""log1pexp stable in its value AND its gradient, at x = -100, 0 and 100."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp_docstring(x):  # the tf.custom_gradient docstring's version
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


@tf.custom_gradient
def log1pexp(x):
    # log(1 + e^x) = max(x, 0) + log(1 + e^-|x|): exp never sees a large
    # positive x
    value = tf.maximum(x, 0.0) + tf.math.log1p(tf.exp(-tf.abs(x)))

    def grad(dy):
        return dy * tf.sigmoid(x)  # d/dx log(1 + e^x) = 1 / (1 + e^-x)

    return value, grad


x = tf.constant([-100.0, 0.0, 100.0])
for f in [log1pexp_docstring, log1pexp, tf.math.softplus]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    print(
        f"{f.__name__:>18}: value {y.numpy().round(4)}, "
        f"gradient {g.numpy().round(4)}"
    )
