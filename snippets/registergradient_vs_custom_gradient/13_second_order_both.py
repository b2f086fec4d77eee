"""Both mechanisms give a second derivative through differentiable ops."""

import tensorflow as tf


@tf.RegisterGradient("SoftplusBySigmoid")
def _softplus_grad(op, dy):
    return dy * tf.sigmoid(op.inputs[0])  # d/dx log(1 + e^x) = sigmoid(x)


@tf.custom_gradient
def log1pexp(x):
    def grad(dy):
        return dy * tf.sigmoid(x)

    return tf.math.log(1.0 + tf.exp(x)), grad


# RegisterGradient: tf.gradients twice in a graph, override on "Softplus"
with tf.Graph().as_default() as g:
    x = tf.constant(0.0)
    with g.gradient_override_map({"Softplus": "SoftplusBySigmoid"}):
        y = tf.math.softplus(x)
    d1 = tf.gradients(y, x)[0]
    d2 = tf.gradients(d1, x)[0]
    with tf.compat.v1.Session() as sess:
        d1, d2 = sess.run([d1, d2])
        print(f"RegisterGradient  : y' = {d1:.4f}, y'' = {d2:.4f}")

# custom_gradient: nested tapes in eager mode
x = tf.constant(0.0)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = log1pexp(x)
    d1 = inner.gradient(y, x)
d2 = outer.gradient(d1, x)
print(f"tf.custom_gradient: y' = {d1:.4f}, y'' = {d2:.4f}")
s = 0.5  # sigmoid(0)
print(
    f"closed form, x = 0: y' = s = {s:.4f}, y'' = s(1 - s) = {s * (1 - s):.4f}"
)
