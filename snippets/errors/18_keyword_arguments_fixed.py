"""The fix: every tensor positional, and grad returns one gradient per positional argument."""

import tensorflow as tf


@tf.custom_gradient
def reverse_gradient(x, weight):
    def grad(dy):
        # TWO gradients: x gets -weight * dy, weight gets none
        return -weight * dy, None

    return tf.identity(x), grad


# or: a Python setting in a closure, not an argument
def make_reverse_gradient(weight):
    @tf.custom_gradient
    def reverse(x):
        return tf.identity(x), lambda dy: -weight * dy

    return reverse


def gradients(call, x, w):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = call(x, w)
    return tape.gradient(y, [x, w])


def eager_mode(call, x, w):
    return gradients(call, x, w)


def in_tf_function(call, x, w):
    @tf.function
    def step(x, w):
        return gradients(call, x, w)

    return step(x, w)


for text, call in [
    ("reverse_gradient(x, w)", lambda x, w: reverse_gradient(x, w)),
    (
        "reverse_gradient(x, weight=w)",
        lambda x, w: reverse_gradient(x, weight=w),
    ),
    (
        "make_reverse_gradient(3.0)(x)",
        lambda x, w: make_reverse_gradient(3.0)(x),
    ),
]:
    print(text)
    for label, mode in [
        ("eager mode: ", eager_mode),
        ("tf.function:", in_tf_function),
    ]:
        try:
            dx, dw = mode(call, tf.constant(1.0), tf.constant(3.0))
            print(f"  {label} dy/dx = {float(dx)}, dy/dw = {dw}")
        except ValueError as e:
            message = str(e).strip().splitlines()[-1].strip().split(": ", 1)[-1]
            # printed from "expected" on: the full message heads the entry on
            # the wrong number of gradients
            print(
                f"  {label} ValueError: {message.replace('custom_gradient function expected', '... expected')}"
            )
