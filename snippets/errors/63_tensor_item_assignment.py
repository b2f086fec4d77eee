"""y[1] = 0. raises; a Variable's scatter update cuts the gradient;
tf.tensor_scatter_nd_update builds a new tensor and keeps it."""

import tensorflow as tf

x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    y = x**2
    try:
        y[1] = 0.0
    except TypeError as e:
        print("TypeError:", e)
    z = tf.tensor_scatter_nd_update(y, [[1]], [0.0])  # a new tensor
    buffer = tf.Variable(tf.zeros([3]))
    buffer.scatter_nd_update([[1]], [x[1] * 2.0])  # a write into state
    w = tf.reduce_sum(buffer)
print("tensor_scatter_nd_update:", tape.gradient(z, x).numpy())
print("Variable.scatter_nd_update:", tape.gradient(w, x))
