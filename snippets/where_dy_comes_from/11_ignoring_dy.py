"""A grad that ignores dy: right when y itself is the target, wrong as soon as y is used further."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp_ignores_dy(x):
    e = tf.exp(x)

    def grad(dy):
        return 1 - 1 / (1 + e)  # only the local derivative: dy is dropped

    return tf.math.log(1 + e), grad


def log1pexp_plain(x):  # no custom gradient: TensorFlow's own autodiff
    return tf.math.log(1 + tf.exp(x))


def d_dx(f, target, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = target(f(x))
    return float(tape.gradient(L, x))


x = tf.constant(0.0)
for name, target in [
    ("y", lambda y: y),
    ("3 * y", lambda y: 3.0 * y),
    ("y ** 2", lambda y: y**2),
    ("sin(y)", tf.sin),
]:
    bad, good = (
        d_dx(log1pexp_ignores_dy, target, x),
        d_dx(log1pexp_plain, target, x),
    )
    verdict = "right" if abs(bad - good) < 1e-6 else "WRONG"
    print(
        f"L = {name:7} ignoring dy: {bad:.4f}   plain "
        f"autodiff: {good:.4f}   {verdict}"
    )
