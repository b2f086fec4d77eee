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


@tf.custom_gradient
def version1(x):  # dy outside the inner function: one return value
    y, x_grad = fused_op(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x):
            def second_order(ddy):
                return ddy * x_grad * (1 - x_grad)

            return x_grad, second_order

        return dy * first_order_custom(x)

    return y, first_order_gradient


variants = {
    "right: ddy * x_grad": make_softplus(lambda ddy, x_grad: ddy * x_grad),
    "wrong: ddy": make_softplus(lambda ddy, x_grad: ddy),
    "wrong: None": make_softplus(lambda ddy, x_grad: None),
    "version 1": version1,
    "tf.math.softplus": tf.math.softplus,  # no custom gradient
}
x = tf.constant(0.0)  # softplus'(0) = 0.5, softplus''(0) = 0.25
one = tf.constant(1.0)


def forward_mode(softplus, x):  # d softplus/dx times the tangent 1
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=one) as acc:
        y = softplus(x)
    return acc.jvp(y)


def inside_tf_function(softplus, x):
    return tf.function(lambda x: forward_mode(softplus, x))(x)


def around_tf_function(softplus, x):
    return forward_mode(tf.function(softplus), x)


def show(run, softplus):
    try:
        value = run(softplus, x)
    except TypeError as e:  # TF 2.21 fails inside its own error handling
        return type(e).__name__
    return "None" if value is None else f"{value:.4f}"


print(
    f"{'':20} {'forward mode: eager':20} {'in tf.function':15} "
    "around tf.function  reverse  second"
)
for name, softplus in variants.items():
    eager = show(forward_mode, softplus)
    inside = show(inside_tf_function, softplus)
    around = show(around_tf_function, softplus)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = softplus(x)
        first = inner.gradient(y, x)  # reverse mode
    second = outer.gradient(first, x)
    print(
        f"{name:<20} {eager:<20} {inside:<15} {around:<18} "
        f"{first:.4f}   {second:.4f}"
    )
