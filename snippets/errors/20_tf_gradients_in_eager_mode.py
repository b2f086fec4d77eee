"""tf.gradients in eager mode raises; a tape (or tf.gradients in a tf.function) works."""

import keras
import tensorflow as tf

x = tf.constant(3.0)
for name, tf1_function in [
    ("tf.gradients", tf.gradients),
    ("tf.hessians", tf.hessians),
]:
    try:
        tf1_function(x**2, x)  # TF1 style, as in old examples
    except RuntimeError as e:
        print(f"{name}, eager:", type(e).__name__ + ":", e)

for name, K in [  # old Keras code: from ... import backend as K
    ("tf.keras.backend", tf.keras.backend),
    ("tf.compat.v1.keras.backend", tf.compat.v1.keras.backend),
    ("keras.backend", keras.backend),
]:
    try:
        K.gradients(x**2, [x])
    except (RuntimeError, AttributeError) as e:
        print(f"{name}.gradients:", type(e).__name__ + ":", e)

with tf.GradientTape() as tape:  # the fix: record, then differentiate
    tape.watch(x)
    y = x**2
print("GradientTape:       ", tape.gradient(y, x).numpy())


@tf.function
def graph_gradient(x):
    return tf.gradients(x**2, x)[0]  # in a graph tf.gradients works


print("tf.gradients, tf.function:", graph_gradient(x).numpy())
