"""The gradient of a gradient is not the Hessian: it is the Hessian's row sums.
tape.jacobian gives the Hessian; output_gradients gives a Hessian-vector
product."""

import tensorflow as tf


def f(x):
    return x[0] ** 2 * x[1] + x[1] ** 3  # Hessian at (1, 2): [[4, 2], [2, 12]]


x = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = f(x)
    g = inner.gradient(y, x)  # a vector: [df/dx0, df/dx1]
print("first derivative:          ", g.numpy())
print("outer.gradient(g, x):      ", outer.gradient(g, x).numpy())
print("outer.jacobian(g, x):      ", outer.jacobian(g, x).numpy().tolist())
v = tf.constant([1.0, 0.0])
hv = outer.gradient(g, x, output_gradients=v)
print("H v with output_gradients: ", hv.numpy())

# Softmax cross-entropy: the rows of its Hessian sum to 0
logits, labels = tf.constant([0.5, 0.5]), tf.constant([1.0, 0.0])
with tf.GradientTape(persistent=True) as outer:
    outer.watch(logits)
    with tf.GradientTape() as inner:
        inner.watch(logits)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels, logits)
    g = inner.gradient(loss, logits)
print("cross-entropy, gradient:   ", outer.gradient(g, logits).numpy())
print("cross-entropy, jacobian:   ", outer.jacobian(g, logits).numpy().tolist())
