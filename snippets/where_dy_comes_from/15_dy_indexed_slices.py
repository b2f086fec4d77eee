"""After tf.gather, dy arrives as tf.IndexedSlices, not as a dense tensor."""

import tensorflow as tf


@tf.custom_gradient
def double(x):
    def grad(dy):
        print(
            f"type(dy): {type(dy).__name__}, dense_shape {dy.dense_shape.numpy()}"
        )
        dense = tf.convert_to_tensor(dy)  # the dense dy, shaped like y
        print("tf.convert_to_tensor(dy) =", dense.numpy())
        return 2.0 * dense

    return 2.0 * x, grad


x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    L = tf.reduce_sum(tf.gather(double(x), [0, 2]))  # L = y[0] + y[2]
print("dL/dx =", tape.gradient(L, x).numpy())
