"""Ways around logsumexp's nan at an all -inf row, with no custom gradient."""

import numpy as np
import tensorflow as tf

LOG_MASK = tf.constant([[0.0, 0.0, -np.inf], [-np.inf, -np.inf, -np.inf]])


def finite_log_zero(x):
    """log 0 as the dtype's most negative number instead of -inf."""
    x = tf.maximum(x, x.dtype.min)  # -inf -> -3.4e38 (float32)
    return tf.reduce_logsumexp(x, axis=-1)


def double_where(x):
    """-inf stays, but the reduction never sees a row that is all -inf."""
    empty = tf.equal(tf.reduce_max(x, axis=-1), -np.inf)
    safe = tf.where(empty[:, None], tf.zeros_like(x), x)
    per_row = tf.reduce_logsumexp(safe, axis=-1)
    return tf.where(empty, -np.inf * tf.ones_like(per_row), per_row)


def where_after(x):
    """The trap: the -inf replaced after the reduction."""
    per_row = tf.reduce_logsumexp(x, axis=-1)
    return tf.where(tf.math.is_finite(per_row), per_row, x.dtype.min)


a = tf.constant([[0.5, -1.0, 2.0], [1.0, 0.0, 3.0]])
for name, per_row in [
    ("finite log 0", finite_log_zero),
    ("double where", double_where),
    ("where after", where_after),
]:
    with tf.GradientTape() as tape:
        tape.watch(a)
        rows = per_row(a + LOG_MASK)
        total = tf.reduce_logsumexp(rows)
    gradient = tape.gradient(total, a).numpy().round(4)
    with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
        jvp = acc.jvp(tf.reduce_logsumexp(per_row(a + LOG_MASK)))
    print(f"{name}: rows {rows.numpy()}, total {total.numpy():.4f}")
    print(f"  gradient {gradient[0]} {gradient[1]}, forward mode {jvp:.4f}")
