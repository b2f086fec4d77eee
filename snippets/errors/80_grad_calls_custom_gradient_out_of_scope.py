"""A grad that calls a custom-gradient function on x raises at order 2 when a
tf.function call lies between the tapes and the function; the same call on
tf.identity(x) works, except through a reloaded SavedModel and for a
tape.jacobian around a tf.function."""

import re
import tempfile

import tensorflow as tf


@tf.custom_gradient
def my_exp(x):  # BUG (with a tf.function between the tapes and my_exp)
    return tf.exp(x), lambda dy: dy * my_exp(x)  # grad calls my_exp on x


@tf.custom_gradient
def plain_exp(x):  # grad made of plain TensorFlow operations
    return tf.exp(x), lambda dy: dy * tf.exp(x)


@tf.custom_gradient
def fixed_exp(x):  # the fix: the same call, on a copy of x made in grad
    return tf.exp(x), lambda dy: dy * fixed_exp(tf.identity(x))


def first_and_second(f, x, jacobian=False):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.jacobian(y, x) if jacobian else inner.gradient(y, x)
    return first, outer.gradient(first, x)  # the error comes here


def reloaded(f):
    module = tf.Module()
    module.f = tf.function(f, input_signature=[tf.TensorSpec([], tf.float32)])
    path = tempfile.mkdtemp()
    tf.saved_model.save(module, path)
    return tf.saved_model.load(path).f


def contexts(f, x):
    return [
        ("eager", lambda: first_and_second(f, x)),
        ("tapes in tf.function", tf.function(lambda: first_and_second(f, x))),
        (
            "tapes around tf.function(f)",
            lambda: first_and_second(tf.function(f), x),
        ),
        (
            "tf.function(f) in tf.function",
            tf.function(lambda: first_and_second(tf.function(f), x)),
        ),
        ("reloaded SavedModel", lambda: first_and_second(reloaded(f), x)),
        (
            "jacobian around tf.function(f)",
            lambda: first_and_second(tf.function(f), x, jacobian=True),
        ),
    ]


x = tf.constant(1.0)  # exp(1) = 2.7183 at every order
for f in (my_exp, plain_exp, fixed_exp):
    print(f"{f.__name__}:")
    for context, run in contexts(f, x):
        try:
            first, second = run()
            print(f"  {context:31} first {first:.4f}  second {second:.4f}")
        except (TypeError, ValueError) as e:
            lines = str(e).splitlines()
            said = next(line for line in lines if "is out of scope" in line)
            said = re.sub(r"^\s*\w+Error: ", "", said).split(" and cannot")[0]
            print(f"  {context:31} {type(e).__name__}: {said}")
            if f is my_exp and context.startswith("tapes around"):
                print("    ...", re.sub(r"id=\d+", "id=...", lines[-1]))
