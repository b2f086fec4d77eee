"""A value written into a tf.Variable with .assign is cut from the tape:
the gradient through it is None; keep the value as a tensor instead."""

import tensorflow as tf

x = tf.Variable(2.0)
memory = tf.Variable(0.0, trainable=False)
with tf.GradientTape(persistent=True) as tape:
    memory.assign(3.0 * x)  # write
    through_assign = memory * memory  # read back
    h = 3.0 * x  # the same value, kept as a tensor
    through_tensor = h * h
print("through assign:", tape.gradient(through_assign, x))
print("through a tensor:", tape.gradient(through_tensor, x).numpy())
