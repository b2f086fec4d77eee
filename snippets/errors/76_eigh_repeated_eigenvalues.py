"""The gradient of tf.linalg.eigh where eigenvalues repeat: finite, and
equal to the closed form, for a function of the eigenvalues."""

import tensorflow as tf

a = tf.Variable(tf.linalg.diag([1.0, 1.0, 2.0]))  # 1 repeats
with tf.GradientTape(persistent=True) as tape:
    e, v = tf.linalg.eigh(a)
    rebuilt = v @ tf.linalg.diag(e) @ tf.transpose(v)
    frobenius = tf.reduce_sum(rebuilt**2)  # ||A||^2, gradient 2A
    squares = tf.reduce_sum(e**2)  # also ||A||^2
print("eigenvalues:", e.numpy())
print("through V diag(e) V^T:\n", tape.gradient(frobenius, a).numpy())
print("through e only:\n", tape.gradient(squares, a).numpy())
