"""The gradient of tf.gather (an Embedding lookup) is an IndexedSlices:
no .numpy(); tf.convert_to_tensor makes the dense gradient."""

import tensorflow as tf

table = tf.Variable(tf.ones([1000, 64]))  # an embedding table
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.gather(table, [1, 5, 5]))
g = tape.gradient(loss, table)
print("type:", type(g).__name__)
try:
    g.numpy()
except AttributeError as e:
    print("AttributeError:", e)
print("g.indices:", g.indices.numpy(), " g.values:", g.values.shape)
dense = tf.convert_to_tensor(g)
print("dense:", dense.shape, " row 5 sums to", float(tf.reduce_sum(dense[5])))
