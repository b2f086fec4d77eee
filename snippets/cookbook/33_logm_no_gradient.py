"""tf.linalg.logm in a loss: LookupError, though the derivative exists."""

import numpy as np
import tensorflow as tf

a = tf.constant([[2.0, 0.3, 0.1], [0.2, 1.5, 0.4], [0.1, 0.1, 1.0]], tf.float64)
w = tf.constant(np.arange(1.0, 10.0).reshape(3, 3) / 10)


def loss(a):  # logm takes complex matrices: the real part, for a real a
    log = tf.linalg.logm(tf.complex(a, tf.zeros_like(a)))
    return tf.reduce_sum(w * tf.math.real(log))


h, steps = 1e-6, tf.reshape(tf.eye(9, dtype=tf.float64), [9, 3, 3])
reference = [(loss(a + h * e) - loss(a - h * e)) / (2 * h) for e in steps]
print(f"reference: {np.reshape(reference, [3, 3]).round(4).tolist()}")
try:
    with tf.GradientTape() as tape:
        tape.watch(a)
        value = loss(a)
    print(tape.gradient(value, a))
except LookupError as e:
    print(f"{type(e).__name__}: {e}")


@tf.function(autograph=False)  # (autograph would wrap the error)
def in_graph(a):  # tf.gradients, in a graph, words it differently
    return tf.gradients(loss(a), a)


try:
    in_graph(a)
except LookupError as e:
    print(f"in a graph, tf.gradients: {str(e).split('. In general')[0]}")
