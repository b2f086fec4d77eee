"""An op type with no gradient yet: registering one under its op type works everywhere, tapes included."""
import tensorflow as tf

# SoftsignGrad(g, f) = g / (1 + |f|)^2 is an op TensorFlow ships WITHOUT a gradient of its own,
# so it stands in here for a new op of yours (for example a custom C++ op).
softsign_grad = tf.raw_ops.SoftsignGrad
f = tf.constant(1.0)
g = tf.constant(1.0)


def d_by_tape(fn):
    with tf.GradientTape() as tape:
        tape.watch(f)
        y = fn()
    return tape.gradient(y, f)


try:
    d_by_tape(lambda: softsign_grad(gradients=g, features=f))
except LookupError as e:
    print("before:", type(e).__name__ + ":", str(e).split(". ")[0] + ".")


@tf.RegisterGradient("SoftsignGrad")  # the op type itself: the first and only registration
def _softsign_grad_grad(op, dy):
    g, f = op.inputs
    denom = 1.0 + tf.abs(f)
    return dy / denom**2, -2.0 * dy * g * tf.sign(f) / denom**3


fn = lambda: softsign_grad(gradients=g, features=f)
print("value at f = 1:                   ", float(fn()))
print("eager GradientTape:               ", float(d_by_tape(fn)))
print("GradientTape inside tf.function:  ", float(tf.function(lambda: d_by_tape(fn))()))
print("closed form -2/(1+|f|)^3 at f = 1:", -2.0 / 8.0)
