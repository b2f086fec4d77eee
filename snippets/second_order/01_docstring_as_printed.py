"""The docstring's op_with_fused_backprop, run as printed (softplus)."""

import tensorflow as tf


# fused_op stands for ONE kernel returning softplus(x) and its derivative
# sigmoid(x); tf.stop_gradient makes it opaque to TF, like a real fused kernel.
def fused_op(x):
    y, x_grad = tf.math.softplus(x), tf.math.sigmoid(x)
    return tf.stop_gradient(y), tf.stop_gradient(x_grad)


def second_order_for_x(x, ddy):  # ddy * softplus''(x)
    return ddy * tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))


def gradient_wrt_dy(x, ddy):  # ddy * softplus'(x)
    return ddy * tf.math.sigmoid(x)


# --8<-- [start:docstring]
@tf.custom_gradient
def op_with_fused_backprop(x):
    y, x_grad = fused_op(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x):
            def second_order_and_transpose(ddy):
                return second_order_for_x(x, ddy), gradient_wrt_dy(x, ddy)

            return x_grad, second_order_and_transpose

        return dy * first_order_custom(x)

    return y, first_order_gradient


# --8<-- [end:docstring]


def first(x, f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)  # calls first_order_gradient(dy=1.0)


def second(x, f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        dy_dx = first(x, f)
    return tape.gradient(dy_dx, x)  # calls second_order_and_transpose


def under_second_tape(x, f):  # a gradient penalty's layout
    w = tf.constant(1.0)  # stands for a weight that the outer tape trains
    with tf.GradientTape() as outer:
        outer.watch([x, w])
        dy_dx = first(x, f)  # only the first derivative is asked for
        done.append("inner.gradient")
        loss = w * dy_dx
    return outer.gradient(loss, w)  # = dy_dx: still no second derivative


def key_line(e):  # tf.function adds a traceback: keep the message's last line
    name = type(e).__name__
    lines = [line.strip() for line in str(e).strip().splitlines()]
    text = lines[-1]
    head = [line for line in lines if "Num gradients" in line]
    if head:  # the graph's message prints the whole op in between
        text = head[0].split(" name:")[0] + " ... " + lines[-1]
    return f"{name}: {text.removeprefix(name + ': ')}"


f = op_with_fused_backprop
contexts = {  # each turns a derivative d(x, f) into a function of x
    "eager": lambda d: lambda x: d(x, f),
    "tapes inside tf.function": lambda d: tf.function(lambda x: d(x, f)),
    "tapes outside tf.function": lambda d: lambda x: d(x, tf.function(f)),
    "tf.gradients in tf.function": lambda d: tf.function(
        lambda x: (
            tf.gradients(tf.gradients(f(x), x)[0], x)[0]
            if d is second
            else tf.gradients(f(x), x)[0]
        )
    ),
}
x = tf.constant(0.0)
done = []  # the calls of under_second_tape that returned
for mode, wrap in contexts.items():
    print(f"{mode}: first derivative at x = 0 is {wrap(first)(x):.4f}")
    try:
        print(f"{mode}: second derivative is {wrap(second)(x):.4f}")
    except Exception as e:
        print(f"{mode}: second derivative fails with {key_line(e)}")
    if mode.startswith("tf.gradients"):
        continue  # no tape, so no second tape either
    done.clear()
    try:
        value = wrap(under_second_tape)(x)
        print(f"{mode}: under a second tape, d loss/dw is {value:.4f}")
    except Exception as e:
        call = "outer.gradient" if done else "inner.gradient"
        print(f"{mode}: under a second tape, {call} fails with {key_line(e)}")
