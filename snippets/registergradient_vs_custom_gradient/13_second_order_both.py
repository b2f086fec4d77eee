"""Both mechanisms give a second derivative when the gradient function is built from differentiable TF ops."""
import tensorflow as tf


@tf.RegisterGradient("SoftplusBySigmoid")
def _softplus_grad(op, dy):
    return dy * tf.sigmoid(op.inputs[0])  # d/dx log(1 + e^x) = sigmoid(x)


@tf.custom_gradient
def log1pexp(x):
    def grad(dy):
        return dy * tf.sigmoid(x)
    return tf.math.log(1.0 + tf.exp(x)), grad


# RegisterGradient: tf.gradients twice in a graph; the override is on op type "Softplus"
with tf.Graph().as_default() as g:
    x = tf.constant(0.0)
    with g.gradient_override_map({"Softplus": "SoftplusBySigmoid"}):
        y = tf.math.softplus(x)
    d1 = tf.gradients(y, x)[0]
    d2 = tf.gradients(d1, x)[0]
    with tf.compat.v1.Session() as sess:
        print("RegisterGradient  : y' = %.4f, y'' = %.4f" % tuple(sess.run([d1, d2])))

# custom_gradient: nested tapes in eager mode (see the second-order chapter)
x = tf.constant(0.0)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = log1pexp(x)
    d1 = inner.gradient(y, x)
d2 = outer.gradient(d1, x)
print("tf.custom_gradient: y' = %.4f, y'' = %.4f" % (d1.numpy(), d2.numpy()))
print("closed form at 0  : y' = sigmoid(0) = 0.5000, y'' = sigmoid(0)(1 - sigmoid(0)) = 0.2500")
