"""No gradient for the full Q of a tall matrix (tf.linalg.qr) and none for
tf.linalg.lu; the reduced QR and tf.linalg.solve have one."""

import tensorflow as tf

tall = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
square = tf.Variable([[4.0, 3.0], [6.0, 3.0]])
rhs = tf.constant([[1.0], [2.0]])
steps = {
    "qr(full_matrices=True)": (tall, lambda: tf.linalg.qr(tall, True)[1]),
    "qr(full_matrices=False)": (tall, lambda: tf.linalg.qr(tall)[1]),
    "lu_solve(*lu(a), b)": (
        square,
        lambda: tf.linalg.lu_solve(*tf.linalg.lu(square), rhs),
    ),
    "solve(a, b)": (square, lambda: tf.linalg.solve(square, rhs)),
}
for name, (source, step) in steps.items():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(step())
    try:
        g = tape.gradient(loss, source)
        print(f"{name:>23}: gradient, shape {g.shape}")
    except (NotImplementedError, LookupError) as e:
        print(f"{name:>23}: {type(e).__name__}: {e}")
