"""y[1] = 0. raises; a Variable's scatter update cuts the gradient;
tf.tensor_scatter_nd_update builds a new tensor and keeps it, but with
duplicate indices its gradient is wrong: every duplicate update gets one."""

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
    twice = tf.tensor_scatter_nd_update(y, [[1], [1]], [x[0], 10.0 * x[0]])
    total = tf.reduce_sum(twice)
print("tensor_scatter_nd_update:", tape.gradient(z, x).numpy())
print("Variable.scatter_nd_update:", tape.gradient(w, x))
print("duplicate index [1] twice: value", twice.numpy())
print("  gradient", tape.gradient(total, x).numpy(), "(d/dx0 is 2 + 10 = 12)")
