"""tf.sparse.reduce_max has no gradient; tf.math.unsorted_segment_max over
the stored values, with the row indices as segments, has one."""

import tensorflow as tf

values = tf.Variable([-1.0, 2.0, -3.0])
indices = tf.constant([[0, 0], [1, 1], [1, 2]], tf.int64)  # row, column
with tf.GradientTape(persistent=True) as tape:
    sparse = tf.sparse.SparseTensor(indices, values, dense_shape=[2, 3])
    by_sparse = tf.sparse.reduce_max(sparse, axis=1)
    by_segment = tf.math.unsorted_segment_max(values, indices[:, 0], 2)
print("tf.sparse.reduce_max:", by_sparse.numpy())
try:
    tape.gradient(by_sparse, values)
except LookupError as e:
    print("  gradient: LookupError:", e)
print("unsorted_segment_max:", by_segment.numpy())
print("  gradient:", tape.gradient(by_segment, values).numpy())
