"""Tensors passed by keyword to a custom-gradient function: each call, in eager mode and in tf.function."""

import tensorflow as tf

calls = []  # one entry per call of grad


@tf.custom_gradient
# gradient reversal: forward identity, backward -weight * dy
def reverse_gradient(x, weight):
    def grad(dy):
        calls.append("grad")
        return -weight * dy  # ONE gradient: meant for x only

    return tf.identity(x), grad


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


def show(label, mode, call):
    calls.clear()
    try:
        dx, dw = (
            None if g is None else float(g)
            for g in mode(call, tf.constant(1.0), tf.constant(3.0))
        )
        print(
            f"  {label} dy/dx = {dx}, dy/dw = {dw}, grad called: {'yes' if calls else 'NO'}"
        )
    except (ValueError, tf.errors.InternalError) as e:
        message = str(e).strip().splitlines()[-1].strip().split(": ", 1)[-1]
        print(f"  {label} {type(e).__name__}: {message}")


print(
    "custom gradient: dy/dx = -3.0; plain autodiff of tf.identity: dy/dx = 1.0"
)
for text, call in [
    (
        "reverse_gradient(x, weight=w)",
        lambda x, w: reverse_gradient(x, weight=w),
    ),
    (
        "reverse_gradient(x=x, weight=w)",
        lambda x, w: reverse_gradient(x=x, weight=w),
    ),
]:
    print(text)
    show("eager mode: ", eager_mode, call)
    show("tf.function:", in_tf_function, call)
