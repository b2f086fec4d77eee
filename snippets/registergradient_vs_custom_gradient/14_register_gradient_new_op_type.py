"""A new op type: its registered gradient works everywhere, tapes too."""

import tensorflow as tf

# SoftsignGrad(g, f) = g / (1 + |f|)^2 is an op that TensorFlow ships
# WITHOUT a gradient: here it stands in for a new op of yours
# (for example a custom C++ op).
softsign_grad = tf.raw_ops.SoftsignGrad
f = tf.constant(1.0)
g = tf.constant(1.0)


def fn():
    return softsign_grad(gradients=g, features=f)


def d_by_tape(forward=fn):
    with tf.GradientTape() as tape:
        tape.watch(f)
        y = forward()
    return tape.gradient(y, f)


try:
    d_by_tape()
except LookupError as e:
    print("before:", type(e).__name__ + ":", str(e).split(". ")[0] + ".")


@tf.RegisterGradient("SoftsignGrad")  # the op type itself, registered once
def _softsign_grad_grad(op, dy):
    g, f = op.inputs
    denom = 1.0 + tf.abs(f)
    return dy / denom**2, -2.0 * dy * g * tf.sign(f) / denom**3


print(f"{'value at f = 1:':34}", float(fn()))
print(f"{'eager GradientTape:':34}", float(d_by_tape()))
in_function = tf.function(d_by_tape)
print(f"{'GradientTape inside tf.function:':34}", float(in_function()))
outside = d_by_tape(tf.function(fn))
print(f"{'GradientTape outside tf.function:':34}", float(outside))
by_tf_gradients = tf.function(lambda: tf.gradients(fn(), f)[0])
print(f"{'tf.gradients in tf.function:':34}", float(by_tf_gradients()))
print(f"{'closed form -2/(1+|f|)^3 at f = 1:':34}", -2.0 / (1.0 + 1.0) ** 3)
