"""Decorating grad itself (tensorflow#34503): grad_grad is the gradient w.r.t. dy, not the second derivative."""
import tensorflow as tf

calls = []


@tf.custom_gradient
def sin(x):
    @tf.custom_gradient
    def grad(dy):  # the only input is dy; x comes from the closure
        def grad_grad(ddy):
            calls.append("grad_grad")
            return ddy * 100.0  # a marker: if 100 shows up anywhere, grad_grad was used

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


x = tf.constant(1.0)  # cos(1) = 0.5403, -sin(1) = -0.8415
for mode, run in [("eager", first_and_second), ("tf.function", tf.function(first_and_second))]:
    calls.clear()
    first, second = run(x)
    second = "None" if second is None else f"{second.numpy():.4f}"
    print(f"{mode:<12} first: {first.numpy():.4f}  second: {second:<8} grad_grad called {len(calls)} time(s)")
