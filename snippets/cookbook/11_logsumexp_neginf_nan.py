"""tf.reduce_logsumexp over a row that is all -inf: value -inf, gradient nan."""

import numpy as np
import tensorflow as tf

for dtype in (tf.float32, tf.float64):
    x = tf.constant([-np.inf, -np.inf], dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_logsumexp(x)
    print(f"{dtype.name}: value {y.numpy()}, gradient {tape.gradient(y, x)}")

# A masked log-sum: log 0 = -inf drops an entry; row 1 keeps none
LOG_MASK = np.array([[0.0, 0.0, -np.inf], [-np.inf, -np.inf, -np.inf]])


def total(a):
    """log(sum over rows of sum over kept entries of exp(a)): finite."""
    a = tf.convert_to_tensor(a)
    per_row = tf.reduce_logsumexp(a + tf.cast(LOG_MASK, a.dtype), axis=-1)
    return tf.reduce_logsumexp(per_row)


a = np.array([[0.5, -1.0, 2.0], [1.0, 0.0, 3.0]])
h, reference = 1e-6, np.zeros_like(a)
for i in np.ndindex(a.shape):
    e = np.zeros_like(a)
    e[i] = h
    reference[i] = (total(a + e) - total(a - e)) / (2 * h)
print(f"total {float(total(a)):.4f}, reference (float64 differences):")
print(reference.round(4))
for dtype in (tf.float32, tf.float64):
    x = tf.constant(a, dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = total(x)
    print(f"{dtype.name} gradient:\n{tape.gradient(y, x).numpy().round(4)}")
