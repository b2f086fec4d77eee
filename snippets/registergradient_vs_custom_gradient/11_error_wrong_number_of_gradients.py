"""A registered gradient must return one gradient per op input."""

import tensorflow as tf


@tf.RegisterGradient("PowOneGradient")
def _pow_one_gradient(op, dy):  # Pow has two inputs: x and the exponent,
    return 2.0 * op.inputs[0] * dy  # but this returns only one gradient


@tf.RegisterGradient("PowFixed")
def _pow_fixed(op, dy):  # fix: one entry per input, None = "no gradient"
    return 2.0 * op.inputs[0] * dy, None


with tf.Graph().as_default() as g:
    x = tf.constant(3.0)
    with g.gradient_override_map({"Pow": "PowOneGradient"}):
        y = x**2
    try:
        tf.gradients(y, x)
    except ValueError as e:
        lines = str(e).splitlines()
        print(type(e).__name__ + ":", lines[0], "...")
        print("   ", lines[-1].strip())
    with g.gradient_override_map({"Pow": "PowFixed"}):
        y = x**2
    dx = tf.gradients(y, x)[0]
    print("fixed: dy/dx =", tf.compat.v1.Session().run(dx))
