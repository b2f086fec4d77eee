"""The gradient of tf.linalg.svd where singular values repeat: finite, and
equal to the closed form, for a function of the singular values."""

import tensorflow as tf

a = tf.Variable(tf.linalg.diag([1.0, 1.0, 2.0]))  # 1 repeats
with tf.GradientTape(persistent=True) as tape:
    s, u, v = tf.linalg.svd(a)
    rebuilt = u @ tf.linalg.diag(s) @ tf.transpose(v)
    frobenius = tf.reduce_sum(rebuilt**2)  # ||A||^2, gradient 2A
    singular_sum = tf.reduce_sum(s)  # gradient U V^T = I here
print("singular values:", s.numpy())
print("d||A||^2/dA:\n", tape.gradient(frobenius, a).numpy())
print("d(sum s)/dA:\n", tape.gradient(singular_sum, a).numpy())
