"""Clipping the value is not clipping the gradient: the forward pass changes."""

import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
for name, f in [
    ("no clipping", lambda x: x),
    ("tf.clip_by_value on x", lambda x: tf.clip_by_value(x, -1.0, 1.0)),
]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x) ** 3)
    print(f"{name:>21}: value {y.numpy():4.1f}, gradient {tape.gradient(y, x)}")
# what was wanted: the value of no clipping, the gradient clipped to [-1, 1]
wanted = tf.clip_by_value(3 * x**2, -1.0, 1.0)
print(f"{'wanted':>21}: value 36.0, gradient {wanted}")
