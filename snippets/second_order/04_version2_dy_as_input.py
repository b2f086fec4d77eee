"""Version 2: dy is an input too, so the innermost grad returns two values."""

import tensorflow as tf


# fused_op stands for ONE kernel returning softplus(x) and its derivative
# sigmoid(x); tf.stop_gradient makes it opaque to TF, like a real fused kernel.
def fused_op(x):
    y, x_grad = tf.math.softplus(x), tf.math.sigmoid(x)
    return tf.stop_gradient(y), tf.stop_gradient(x_grad)


@tf.custom_gradient
def softplus(x):
    y, x_grad = fused_op(x)  # x_grad = sigmoid(x) = softplus'(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x, dy):  # TWO inputs ...
            def second_order_and_transpose(ddy):  # ... so TWO values:
                for_x = ddy * dy * x_grad * (1 - x_grad)  # dy * softplus''
                for_dy = ddy * x_grad  # softplus'
                return for_x, for_dy

            return dy * x_grad, second_order_and_transpose

        return first_order_custom(x, dy)

    return y, first_order_gradient


def derivatives(f, x):
    dy = tf.ones_like(x)  # what tape.gradient would pass; here we watch it
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, dy])
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x, output_gradients=dy)
    return outer.gradient(dy_dx, x), outer.gradient(dy_dx, dy)


def show(label, values):
    print(f"{label:<34}" + "".join(f"{v:9.4f}" for v in values.numpy()))


x = tf.constant([-2.0, 0.0, 3.0, 100.0])
s = tf.sigmoid(x)
reference = derivatives(tf.math.softplus, x)
ours_eager = derivatives(softplus, x)
ours_graph = tf.function(lambda x: derivatives(softplus, x))(x)
show("x", x)
rows = [("second derivative", s * (1 - s)), ("gradient w.r.t. dy", s)]
for i, (name, closed_form) in enumerate(rows):
    print(name)
    show("  closed form", closed_form)
    show("  nested tapes on tf.math.softplus", reference[i])
    show("  version 2, eager", ours_eager[i])
    show("  version 2, tf.function", ours_graph[i])
