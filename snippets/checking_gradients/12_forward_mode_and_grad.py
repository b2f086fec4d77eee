"""What forward mode (tf.autodiff.ForwardAccumulator) does with a custom grad."""

import tensorflow as tf


def reversal(forward):
    """forward(x) with grad -dy: a custom gradient that differs on purpose."""

    @tf.custom_gradient
    def f(x):
        return forward(x), lambda dy: -dy

    return f


differentiable = reversal(tf.identity)  # the forward has a derivative, 1
opaque = reversal(tf.stop_gradient)  # the forward has none


def jvp(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = f(x)
    return acc.jvp(y, unconnected_gradients="zero")


def reverse(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


x = tf.constant(2.0)
for name, f in [("identity", differentiable), ("stop_gradient", opaque)]:
    print(f"forward = {name}:")
    traced = tf.function(lambda x: jvp(f, x))  # noqa: B023 (a closure keeps grad)
    print(f"  reverse mode (a tape):        {reverse(f, x):+.1f}")
    print(f"  forward mode, eager:          {jvp(f, x):+.1f}")
    print(f"  forward mode, in tf.function: {traced(x):+.1f}")
