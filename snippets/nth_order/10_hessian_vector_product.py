"""A Hessian-vector product without the Hessian: forward-over-reverse."""

import numpy as np
import tensorflow as tf


def f(x):
    return tf.reduce_logsumexp(x)  # Hessian: diag(p) - p p^T, p = softmax(x)


x = tf.constant([0.0, 1.0, 2.0], tf.float64)
v = tf.constant([1.0, 0.0, -1.0], tf.float64)

# Forward over reverse: push v forward through the computation of the gradient.
with tf.autodiff.ForwardAccumulator(primals=x, tangents=v) as accumulator:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gradient = tape.gradient(y, x)
hvp = accumulator.jvp(gradient)  # H v, without ever building H

# The whole Hessian with tape.jacobian: one row per input (3 here, fine).
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = f(x)
    gradient = inner.gradient(y, x)
hessian = outer.jacobian(gradient, x)

p = tf.nn.softmax(x).numpy()
exact = (np.diag(p) - np.outer(p, p)) @ v.numpy()
print("forward-over-reverse H v: ", np.round(hvp.numpy(), 10))
print("tape.jacobian, then H @ v:", np.round(hessian.numpy() @ v.numpy(), 10))
print("closed form:              ", np.round(exact, 10))
print(f"max abs error: {np.max(np.abs(hvp.numpy() - exact)):.1e}")
