"""Two custom-gradient functions in a chain: the inner grad's dy is the outer grad's result."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    y = tf.math.log(1 + e)
    print(
        f"forward: log1pexp(x = {float(x):.4f}) -> y = {float(y):.4f}, "
        f"stores e = {float(e):.4f}"
    )

    def grad(dy):
        s = 1 - 1 / (1 + e)  # sigmoid(x)
        print(
            f"backward: log1pexp grad gets dy = {float(dy):.4f}, returns "
            f"dy * sigmoid(x) = {float(dy):.4f} * "
            f"{float(s):.4f} = {float(dy * s):.4f}"
        )
        return dy * s

    return y, grad


@tf.custom_gradient
def square(y):
    L = y * y
    print(
        f"forward: square(y = {float(y):.4f}) -> L = {float(L):.4f}, "
        f"stores y = {float(y):.4f}"
    )

    def grad(dy):
        print(
            f"backward: square grad gets dy = {float(dy):.4f}, returns "
            f"2 * y * dy = {float(2 * y * dy):.4f}"
        )
        return 2 * y * dy

    return L, grad


x = tf.constant(0.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    L = square(log1pexp(x))
print("calling tape.gradient(L, x)")
dx = tape.gradient(L, x)
with tf.GradientTape() as plain:  # the same function, no custom gradients
    plain.watch(x)
    L_plain = tf.math.log(1 + tf.exp(x)) ** 2
print(
    f"dL/dx = {float(dx):.4f}; plain autodiff gives "
    f"{float(plain.gradient(L_plain, x)):.4f}"
)
