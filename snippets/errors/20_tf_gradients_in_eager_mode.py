"""tf.gradients in eager mode raises; a tape (or tf.gradients in a tf.function) works."""

import tensorflow as tf

x = tf.constant(3.0)
try:
    tf.gradients(x**2, x)  # TF1 style, as in old examples and K.gradients
except RuntimeError as e:
    print("tf.gradients, eager:", type(e).__name__ + ":", e)

with tf.GradientTape() as tape:  # the fix: record, then differentiate
    tape.watch(x)
    y = x**2
print("GradientTape:       ", tape.gradient(y, x).numpy())


@tf.function
def graph_gradient(x):
    return tf.gradients(x**2, x)[0]  # in a graph tf.gradients works


print("tf.gradients, tf.function:", graph_gradient(x).numpy())
