"""A @tf.custom_gradient function passed as a tf.function ARGUMENT loses it."""

import re

import tensorflow as tf


@tf.custom_gradient
def softplus(x):
    def grad(dy):
        return dy * tf.sigmoid(x)

    return tf.math.softplus(x), grad


def derivative(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def peek(f, x):  # what does f(x) return inside tf.function?
    print("tf.function, f as argument: f(x) returns a", type(f(x)).__name__)
    return x


x = tf.constant(0.0)  # softplus'(0) = 0.5
print("eager, f as argument:      ", f"{derivative(softplus, x):.4f}")
closure = tf.function(lambda x: derivative(softplus, x))
print("tf.function, f in closure: ", f"{closure(x):.4f}")
tf.function(peek)(softplus, x)
try:
    tf.function(derivative)(softplus, x)
except TypeError as e:  # keep the last line, without the function's address
    line = str(e).strip().splitlines()[-1].strip().removeprefix("TypeError: ")
    print(
        "tf.function, f as argument: TypeError:",
        re.sub(r"<function .*? at 0x[0-9a-f]+>", "<function grad>", line),
    )
