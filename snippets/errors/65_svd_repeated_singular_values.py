"""The gradient of tf.linalg.svd where singular values repeat: no nan, and
right for a function of the singular values; but a function of U and V
(here U S V^T, which is A itself) loses the part of its gradient that
couples the singular vectors of the repeated value."""

import tensorflow as tf

w = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
for second in [1.01, 1.0]:  # 1.0: the singular value 1 repeats
    a = tf.Variable(tf.linalg.diag([1.0, second, 2.0]))
    with tf.GradientTape(persistent=True) as tape:
        s, u, v = tf.linalg.svd(a)
        singular_sum = tf.reduce_sum(s)  # gradient U V^T = I
        rebuilt = tf.reduce_sum(w * (u @ tf.linalg.diag(s) @ tf.transpose(v)))
    print(f"A = diag(1, {second}, 2): singular values {s.numpy()}")
    print(
        "  d(sum s)/dA diagonal:",
        tf.linalg.diag_part(tape.gradient(singular_sum, a)).numpy().round(4),
    )
    print(
        "  d(sum w * U S V^T)/dA row 1:",
        tape.gradient(rebuilt, a)[0].numpy().round(4),
    )
