"""The second derivative of sparse_softmax_cross_entropy_with_logits:
computed, and equal to that of the dense op and of diag(p) - p p^T."""

import tensorflow as tf

logits = tf.constant([[1.0, 0.5, -1.0]])
label = tf.constant([0])
losses = {
    "sparse": lambda z: tf.nn.sparse_softmax_cross_entropy_with_logits(
        label, z
    ),
    "dense": lambda z: tf.nn.softmax_cross_entropy_with_logits(
        tf.one_hot(label, 3), z
    ),
}
for name, loss in losses.items():
    with tf.GradientTape() as outer:
        outer.watch(logits)
        with tf.GradientTape() as inner:
            inner.watch(logits)
            y = tf.reduce_sum(loss(logits))
        g = inner.gradient(y, logits)
    h = outer.jacobian(g, logits)[0, :, 0, :]  # 3 x 3
    print(f"{name:>6}: Hessian row 1 {h[0].numpy().round(6)}")
p = tf.nn.softmax(logits)[0]
closed = tf.linalg.diag(p) - p[:, None] * p[None, :]
print(f"{'closed':>6}: Hessian row 1 {closed[0].numpy().round(6)}")
