"""Alternatives to the safe_norm recipe, at zero, tiny and huge entries."""

import tensorflow as tf


def epsilon(x):  # an epsilon inside the square root
    return tf.sqrt(tf.reduce_sum(x * x, axis=-1) + 1e-12)


def double_where(x):  # the sum of squares replaced before tf.sqrt sees 0
    squares = tf.reduce_sum(x * x, axis=-1)
    positive = squares > 0
    safe = tf.where(positive, squares, tf.ones_like(squares))
    return tf.where(positive, tf.sqrt(safe), tf.zeros_like(squares))


def squared(x):  # no square root at all, if the loss allows it
    return tf.reduce_sum(x * x, axis=-1)


def scaled(x):  # the recipe's value with double wheres, no custom gradient
    s = tf.reduce_max(tf.abs(x), axis=-1, keepdims=True)
    nonzero = s > 0
    safe_s = tf.where(nonzero, s, tf.ones_like(s))
    u = tf.where(nonzero, x / safe_s, tf.ones_like(x))  # no norm of 0
    return tf.squeeze(
        tf.where(nonzero, s * tf.norm(u, axis=-1, keepdims=True), 0.0), -1
    )


def show(a):  # 4 significant digits, row by row
    if a.ndim > 1:
        return ", ".join(show(row) for row in a)
    return "[" + " ".join(f"{v:.4g}" for v in a) + "]"


x = tf.constant([[0.0, 0.0, 0.0], [3e-20, 4e-20, 0.0], [3e20, 4e20, 0.0]])
print("float32, rows [0 0 0], [3e-20 4e-20 0], [3e+20 4e+20 0]:")
for f in (epsilon, double_where, squared, scaled):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        jvp = acc.jvp(f(x))
    print(f"  {f.__name__}: value {show(y.numpy())}")
    print(f"    gradient {show(g.numpy())}")
    print(f"    forward mode {show(jvp.numpy())}")
