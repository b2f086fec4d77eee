"""grad reads a tf.Variable; the function runs in tf.cond or tf.while_loop."""

import re
import traceback

import tensorflow as tf

w = tf.Variable(2.0, trainable=False)


@tf.custom_gradient
def scale(x):
    def grad(dy):
        return dy * w  # reads the variable in the backward pass

    return w * x, grad


@tf.custom_gradient
def scale_fixed(x):
    w_value = tf.identity(w)  # read the variable once, in the forward pass

    def grad(dy):
        return dy * w_value  # use that tensor in the backward pass

    return w_value * x, grad


def call(f, x, where):
    if where == "tf.cond":
        return tf.cond(x > 0, lambda: f(x), lambda: x)
    if where == "tf.while_loop":
        loop = tf.while_loop(
            lambda i, y: i < 1, lambda i, y: (i + 1, f(y)), (0, x)
        )
        return loop[1]
    return f(x)


def gradient(f, where):
    x = tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = call(f, x, where)
    return tape.gradient(y, x)


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for f in [scale, scale_fixed]:
    for where in ["alone", "tf.cond", "tf.while_loop"]:
        for mode, run in MODES:
            label = f"{f.__name__:<11} {where:<13} {mode:>11}"
            try:
                print(f"{label}: {run(gradient, f, where).numpy()}")
            except (AttributeError, ValueError) as e:
                message = str(e).strip().splitlines()[-1].strip()
                message = re.sub(
                    r"Tensor Tensor.*? is in", "Tensor ... is in", message
                )
                print(f"{label}: {message}")

tf.debugging.disable_traceback_filtering()  # keep TensorFlow's own frames
try:
    in_tf_function(gradient, scale, "tf.cond")
except AttributeError as e:
    frames = traceback.extract_tb(e.__traceback__)
    names = [f.name for f in frames if f.filename.endswith("ops/cond_v2.py")]
    print("unfiltered traceback, functions in ops/cond_v2.py:", names)
