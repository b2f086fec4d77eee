"""tf.sparse.reduce_max has no gradient; tf.math.unsorted_segment_max over
the stored values, with the row indices as segments, has one. A row with no
stored entry gets the lowest float instead of 0: tf.where with a count of
the entries per row puts the 0 back. Tied maxima share the gradient."""

import tensorflow as tf

values = tf.Variable([-1.0, 2.0, 2.0])
indices = tf.constant([[0, 0], [2, 1], [2, 2]], tf.int64)  # row 1: empty
rows, n = indices[:, 0], 3
with tf.GradientTape(persistent=True) as tape:
    sparse = tf.sparse.SparseTensor(indices, values, dense_shape=[n, 3])
    by_sparse = tf.sparse.reduce_max(sparse, axis=1)
    by_segment = tf.math.unsorted_segment_max(values, rows, n)
    count = tf.math.unsorted_segment_sum(tf.ones_like(values), rows, n)
    fixed = tf.where(count > 0, by_segment, 0.0)
print("tf.sparse.reduce_max:", by_sparse.numpy())
try:
    tape.gradient(by_sparse, values)
except LookupError as e:
    print("  gradient: LookupError:", e)
print("unsorted_segment_max:", by_segment.numpy())
print("  with tf.where:     ", fixed.numpy())
print("  gradient:", tape.gradient(fixed, values).numpy())
