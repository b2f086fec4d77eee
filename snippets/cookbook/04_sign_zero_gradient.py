"""tf.sign passes back a gradient of zeros: a binarized layer cannot learn."""

import tensorflow as tf

x = tf.constant([-2.0, -0.5, 0.0, 0.3, 1.5])
dy = tf.constant(3.0)  # the upstream gradient of every element
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(dy * tf.sign(x))
print("value of tf.sign:       ", tf.sign(x).numpy())
print("tf.sign's own gradient: ", tape.gradient(loss, x).numpy())
# the rule binarized networks train with: dy where |x| <= 1, 0 outside
intended = dy * tf.cast(tf.abs(x) <= 1.0, tf.float32)
print("the intended rule:      ", intended.numpy())
