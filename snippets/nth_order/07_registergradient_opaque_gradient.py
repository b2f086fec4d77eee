"""An opaque op inside a registered gradient needs a registered gradient too."""

import math

import numpy as np
import tensorflow as tf


def opaque_sin(x, k, gradient_name=None):
    """sin(x + k*pi/2) in NumPy: one opaque "PyFunc" op with inputs x, k."""
    overrides = {"PyFunc": gradient_name} if gradient_name else {}
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map(overrides):
        return tf.numpy_function(
            lambda x, k: np.sin(x + k * np.pi / 2), [x, k], tf.float64
        )


@tf.RegisterGradient("OpaqueOnce")
def _opaque_once(op, dy):
    x, k = op.inputs  # builds a plain PyFunc op: TF has no gradient for it
    return dy * opaque_sin(x, k + 1), None


@tf.RegisterGradient("OpaqueEveryOrder")
def _opaque_every_order(op, dy):
    x, k = op.inputs  # builds an op whose gradient is this function again
    return dy * opaque_sin(x, k + 1, "OpaqueEveryOrder"), None


@tf.function
def orders_1_to_8(x, gradient_name):
    y = opaque_sin(x, tf.constant(0.0, tf.float64), gradient_name)
    derivatives = []
    for _ in range(8):
        y = tf.gradients(y, x)[0]  # None if an op on the path has no gradient
        derivatives.append(y)
        if y is None:
            break
    return derivatives


x = tf.constant(0.5, tf.float64)
once = orders_1_to_8(x, "OpaqueOnce")
once += [None] * (8 - len(once))  # the loop stopped at the first None
every = orders_1_to_8(x, "OpaqueEveryOrder")
print("order | gradient only once | gradient at every order | closed form")
for n in range(1, 9):
    first = "None" if once[n - 1] is None else f"{once[n - 1].numpy():+.10f}"
    exact = math.sin(0.5 + n * math.pi / 2)
    second = f"{every[n - 1].numpy():+.10f}"
    print(f"{n:5} | {first:>18} | {second:>23} | {exact:+.10f}")
