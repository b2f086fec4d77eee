"""Forward mode reads the gradient w.r.t. dy; reverse mode never does."""

import tensorflow as tf


# fused_op stands for ONE kernel returning softplus(x) and its derivative
# sigmoid(x); tf.stop_gradient makes it opaque to TF, like a real fused kernel.
def fused_op(x):
    y, x_grad = tf.math.softplus(x), tf.math.sigmoid(x)
    return tf.stop_gradient(y), tf.stop_gradient(x_grad)


def make_softplus(gradient_wrt_dy):  # version 2, the dy part plugged in
    @tf.custom_gradient
    def softplus(x):
        y, x_grad = fused_op(x)

        def first_order_gradient(dy):
            @tf.custom_gradient
            def first_order_custom(unused_x, dy):
                def second_order_and_transpose(ddy):
                    for_x = ddy * dy * x_grad * (1 - x_grad)
                    return for_x, gradient_wrt_dy(ddy, x_grad)

                return dy * x_grad, second_order_and_transpose

            return first_order_custom(x, dy)

        return y, first_order_gradient

    return softplus


variants = {
    "right: ddy * x_grad": make_softplus(lambda ddy, x_grad: ddy * x_grad),
    "wrong: ddy": make_softplus(lambda ddy, x_grad: ddy),
    "wrong: None": make_softplus(lambda ddy, x_grad: None),
}
x = tf.constant(0.0)  # softplus'(0) = 0.5, softplus''(0) = 0.25
one = tf.constant(1.0)
for name, softplus in variants.items():
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=one) as acc:
        y = softplus(x)
    forward = acc.jvp(y)  # forward mode: d softplus/dx times the tangent 1
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = softplus(x)
        first = inner.gradient(y, x)  # reverse mode
    second = outer.gradient(first, x)
    forward = "None" if forward is None else f"{forward:.4f}"
    print(
        f"{name:<20} forward: {forward:<6}  "
        f"reverse: {first:.4f}  second: {second:.4f}"
    )
