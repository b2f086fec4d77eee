"""Without unused_x: grad returns dy * x_grad; second derivative is None."""

import tensorflow as tf


# fused_op stands for ONE kernel returning softplus(x) and its derivative
# sigmoid(x); tf.stop_gradient makes it opaque to TF, like a real fused kernel.
def fused_op(x):
    y, x_grad = tf.math.softplus(x), tf.math.sigmoid(x)
    return tf.stop_gradient(y), tf.stop_gradient(x_grad)


@tf.custom_gradient
def softplus(x):
    y, x_grad = fused_op(x)

    def first_order_gradient(dy):
        # x_grad is a finished number here: no recorded path leads back to x
        return dy * x_grad

    return y, first_order_gradient


def first_and_second(x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = softplus(x)
        dy_dx = inner.gradient(y, x)
    return dy_dx, outer.gradient(dy_dx, x)


x = tf.constant(0.0)  # softplus'(0) = 0.5, softplus''(0) = 0.25
for mode, run in [
    ("eager", first_and_second),
    ("tf.function", tf.function(first_and_second)),
]:
    first, second = run(x)
    print(f"{mode}: first derivative {first:.4f}, second derivative {second}")
