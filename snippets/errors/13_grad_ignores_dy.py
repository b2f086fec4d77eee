"""grad that ignores dy: right when the target is y, wrong as soon as anything follows."""

import tensorflow as tf


@tf.custom_gradient
def square_ignoring_dy(x):
    def grad(dy):
        return 2 * x  # BUG: should be dy * 2 * x

    return x * x, grad


@tf.custom_gradient
def square(x):
    def grad(dy):
        return dy * 2 * x

    return x * x, grad


x = tf.constant(3.0)
for f in [square_ignoring_dy, square]:
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        loss = 10 * y  # d(loss)/dx = 10 * 2x = 60
    print(
        f"{f.__name__:>18}: d(y)/dx = {tape.gradient(y, x).numpy():.1f},"
        f" d(10*y)/dx = {tape.gradient(loss, x).numpy():.1f}"
    )
