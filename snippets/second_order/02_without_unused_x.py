"""Why unused_x: if grad just returns dy * x_grad, nothing links x_grad to x, so the second derivative is None."""
import tensorflow as tf


def fused_op(x):  # stands for ONE kernel returning softplus(x) and sigmoid(x); TF cannot look inside
    return tf.stop_gradient(tf.math.softplus(x)), tf.stop_gradient(tf.math.sigmoid(x))


@tf.custom_gradient
def softplus(x):
    y, x_grad = fused_op(x)

    def first_order_gradient(dy):
        return dy * x_grad  # x_grad is a finished number here: no recorded path back to x

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
for mode, run in [("eager", first_and_second), ("tf.function", tf.function(first_and_second))]:
    first, second = run(x)
    print(f"{mode}: first derivative {first.numpy():.4f}, second derivative {second}")
