"""Three old gradient errors that TensorFlow 2.21 no longer raises:
tf.math.segment_max, tf.gather_nd, and a tf.cond gradient taken twice."""

import tensorflow as tf

x = tf.Variable([1.0, 2.0, 3.0, 0.5, -0.3])
with tf.GradientTape(persistent=True) as tape:
    seg_max = tf.math.segment_max(x, [0, 0, 0, 1, 2])
    picked = tf.gather_nd(x, [[1], [2]])
print("segment_max gradient:", tape.gradient(seg_max, x).numpy())
g = tf.convert_to_tensor(tape.gradient(picked, x))  # an IndexedSlices
print("gather_nd gradient:  ", g.numpy())


@tf.function
def cond_gradient_twice(v):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        y = tf.cond(v > 0.0, lambda: v * 5.0, lambda: v)
    return tape.gradient(y, v), tape.gradient(y, v)


first, second = cond_gradient_twice(tf.constant(2.0))
print("tf.cond gradient twice in tf.function:", float(first), float(second))
