"""A registered gradient of an op with two outputs must use both upstream gradients."""

import math

import numpy as np
import tensorflow as tf


def numpy_sin_and_cos(x):  # one opaque op, two outputs: f(x) and f'(x)
    return tf.numpy_function(
        lambda v: (np.sin(v), np.cos(v)), [x], [tf.float64, tf.float64]
    )


@tf.RegisterGradient("UsesBothUpstreams")
def _uses_both(op, dy_sin, dy_cos):
    x = op.inputs[0]
    return dy_sin * tf.cos(x) - dy_cos * tf.sin(x)  # d sin = cos, d cos = -sin


@tf.RegisterGradient("IgnoresTheSecond")
def _ignores_the_second(op, dy_sin, dy_cos):
    return dy_sin * op.outputs[1]  # right at first order; dy_cos is dropped


def first_and_second_derivative(gradient_name, x):
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map({"PyFunc": gradient_name}):
        sin_x, _ = numpy_sin_and_cos(x)
    first = tf.gradients(sin_x, x)[0]  # dy_sin * cos(x): uses output 2
    return first, tf.gradients(first, x)[0]  # flows back through output 2


x = tf.constant(0.5, tf.float64)
print(f"{'':18} {'first':>9}  {'second':>9}")
print(f"exact:             {math.cos(0.5):+.6f}  {-math.sin(0.5):+.6f}")
for name in ["UsesBothUpstreams", "IgnoresTheSecond"]:
    first, second = tf.function(first_and_second_derivative)(name, x)
    print(f"{name + ':':18} {first.numpy():+.6f}  {second.numpy():+.6f}")
