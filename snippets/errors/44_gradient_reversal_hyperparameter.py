"""Gradient reversal with a strength lam (`l` in the reports): why None."""

import tensorflow as tf


@tf.custom_gradient
def flip_one_gradient(x, lam):
    def grad(dy):
        return -lam * dy  # one gradient, but the function has two inputs

    return tf.identity(x), grad


@tf.custom_gradient
def flip(x, lam):
    def grad(dy):
        return -lam * dy, None  # x gets -lam * dy, lam gets no gradient

    return tf.identity(x), grad


def make_flip(lam):  # lam is a Python number in a closure, not an input
    @tf.custom_gradient
    def flip(x):
        return tf.identity(x), lambda dy: -lam * dy

    return flip


def gradient(call):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(call(x))
    return tape.gradient(y, x)


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for label, call in [
    ("flip_one_gradient(x, 0.5)", lambda x: flip_one_gradient(x, 0.5)),
    ("flip(x, 0.5)             ", lambda x: flip(x, 0.5)),
    ("make_flip(0.5)(x)        ", lambda x: make_flip(0.5)(x)),
]:
    for mode, run in MODES:
        try:
            print(f"{label} {mode:>11}: {run(gradient, call).numpy()}")
        except (ValueError, tf.errors.InternalError) as e:
            message = str(e).strip().splitlines()[-1].strip()
            message = message.removeprefix(f"{type(e).__name__}: ")
            # from "expected" on: the full message heads the entry on the wrong
            # number of gradients
            message = message.replace(
                "custom_gradient function expected", "... expected"
            )
            print(f"{label} {mode:>11}: {type(e).__name__}: {message}")
