"""grad itself decorated (#34503): grad_grad answers for dy, not for x."""

import tensorflow as tf

calls = []


@tf.custom_gradient
def sin(x):
    @tf.custom_gradient
    def grad(dy):  # the only input is dy; x comes from the closure
        def grad_grad(ddy):
            calls.append("grad_grad")
            return ddy * 100.0  # a marker: if 100 shows up, grad_grad was used

        return dy * tf.cos(x), grad_grad

    return tf.sin(x), grad


def first_and_second(x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = sin(x)
        dy_dx = inner.gradient(y, x)
    return dy_dx, outer.gradient(dy_dx, x)


def show(mode, second):
    second = "None" if second is None else f"{second:.4f}"
    print(
        f"{mode:<18} second derivative: {second:<8} "
        f"grad_grad called {len(calls)} time(s)"
    )


x = tf.constant(1.0)  # cos(1) = 0.5403, -sin(1) = -0.8415
for mode, run in [
    ("eager", first_and_second),
    ("tf.function", tf.function(first_and_second)),
]:
    calls.clear()
    first, second = run(x)
    show(mode, second)

calls.clear()
dy = tf.constant(1.0)  # now watch dy too, and ask for the gradient w.r.t. it
with tf.GradientTape(persistent=True) as outer:
    outer.watch([x, dy])
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = sin(x)
    dy_dx = inner.gradient(y, x, output_gradients=dy)
show("eager, dy watched", outer.gradient(dy_dx, x))
print(
    f"{'':<18} gradient w.r.t. dy: {outer.gradient(dy_dx, dy):.4f}"
    " (the marker: grad_grad's value)"
)
