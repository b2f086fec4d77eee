"""The gradient of tf.linalg.eigh where eigenvalues repeat: no nan, and
right for a function of the eigenvalues; but a function of the eigenvectors
(here V diag(e) V^T, which is A itself) loses the part of its gradient that
couples the eigenvectors of the repeated value."""

import tensorflow as tf

w = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
for second in [1.01, 1.0]:  # 1.0: the eigenvalue 1 repeats
    a = tf.Variable(tf.linalg.diag([1.0, second, 2.0]))
    with tf.GradientTape(persistent=True) as tape:
        e, v = tf.linalg.eigh(a)
        squares = tf.reduce_sum(e**2)  # ||A||^2, gradient 2A
        rebuilt = tf.reduce_sum(w * (v @ tf.linalg.diag(e) @ tf.transpose(v)))
    print(f"A = diag(1, {second}, 2): eigenvalues {e.numpy()}")
    print(
        "  d(sum e^2)/dA diagonal:",
        tf.linalg.diag_part(tape.gradient(squares, a)).numpy().round(4),
    )
    print(
        "  d(sum w * V diag(e) V^T)/dA row 2:",
        tape.gradient(rebuilt, a)[1].numpy().round(4),
    )
