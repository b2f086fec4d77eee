"""A grad made of differentiable TF ops needs no custom second order."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):  # the docstring's first example
    e = tf.exp(x)

    def grad(dy):  # plain TF ops on e = exp(x): the outer tape records them
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def second_derivative(x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)


def show(label, values):
    print(f"{label:<34}" + "".join(f"{v:9.4f}" for v in values.numpy()))


x = tf.constant([-2.0, 0.0, 3.0, 100.0])
show("x", x)
show("closed form sigmoid*(1-sigmoid)", tf.sigmoid(x) * (1 - tf.sigmoid(x)))
show("nested tapes, eager", second_derivative(x))
show("nested tapes, tf.function", tf.function(second_derivative)(x))
