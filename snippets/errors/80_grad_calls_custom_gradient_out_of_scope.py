"""A grad that calls a custom-gradient function on x: nested tapes outside a
tf.function raise at order 2; the same function on tf.identity(x) works."""

import re

import tensorflow as tf


@tf.custom_gradient
def my_exp(x):  # BUG (only with the tapes outside a tf.function)
    return tf.exp(x), lambda dy: dy * my_exp(x)  # grad calls my_exp on x


@tf.custom_gradient
def plain_exp(x):  # grad made of plain TensorFlow operations
    return tf.exp(x), lambda dy: dy * tf.exp(x)


@tf.custom_gradient
def fixed_exp(x):  # the fix: the same call, on a copy of x made in grad
    return tf.exp(x), lambda dy: dy * fixed_exp(tf.identity(x))


def first_and_second(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x)
    return first, outer.gradient(first, x)  # the error comes here


def contexts(f, x):
    return [
        ("eager", lambda: first_and_second(f, x)),
        (
            "tapes inside tf.function",
            tf.function(lambda: first_and_second(f, x)),
        ),
        (
            "tapes outside tf.function",
            lambda: first_and_second(tf.function(f), x),
        ),
    ]


x = tf.constant(1.0)  # exp(1) = 2.7183 at every order
for f in (my_exp, plain_exp, fixed_exp):
    print(f"{f.__name__}:")
    for context, run in contexts(f, x):
        try:
            first, second = run()
            print(f"  {context:25}  first {first:.4f}  second {second:.4f}")
        except TypeError as e:
            lines = str(e).splitlines()
            print(f"  {context:25}  TypeError: {lines[0]}")
            print("    ...", re.sub(r"id=\d+", "id=...", lines[-1]))
