"""Version 1: the innermost grad returns only the second-order term."""

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
        def first_order_custom(unused_x):  # ONE input ...
            def second_order(ddy):  # ... so ONE value: ddy * softplus''(x)
                return ddy * x_grad * (1 - x_grad)

            return x_grad, second_order

        return dy * first_order_custom(x)

    return y, first_order_gradient


def second_derivative(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)


def show(label, values):
    print(f"{label:<34}" + "".join(f"{v:9.4f}" for v in values.numpy()))


x = tf.constant([-2.0, 0.0, 3.0, 100.0])
in_graph = tf.function(lambda x: second_derivative(softplus, x))
show("x", x)
show("closed form sigmoid*(1-sigmoid)", tf.sigmoid(x) * (1 - tf.sigmoid(x)))
autodiff = second_derivative(tf.math.softplus, x)  # TF's own softplus
show("nested tapes on tf.math.softplus", autodiff)
show("version 1, eager", second_derivative(softplus, x))
show("version 1, tf.function", in_graph(x))
