"""What forward mode (tf.autodiff.ForwardAccumulator) does with a custom grad."""

import tensorflow as tf

calls = []  # one entry per call of a grad


def reversal(forward):
    """forward(x) with grad -dy: a custom gradient that differs on purpose."""

    @tf.custom_gradient
    def f(x):
        def grad(dy):
            calls.append(1)
            return -dy

        return forward(x), grad

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
    inside = tf.function(lambda x: jvp(f, x))  # noqa: B023 (a closure keeps grad)
    around = tf.function(f)  # the accumulator, eager, watches a call of it
    print(f"  reverse mode (a tape):            {reverse(f, x):+.1f}")
    calls.clear()
    print(
        f"  forward mode, eager:              {jvp(f, x):+.1f}  (grad called: {len(calls)})"
    )
    print(f"  forward mode, in tf.function:     {inside(x):+.1f}")
    print(f"  forward mode, around tf.function: {jvp(around, x):+.1f}")
