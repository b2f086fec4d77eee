"""Built-in and one-line alternatives to the log1pexp recipe, and a trap."""

import tensorflow as tf


def where_after(x):  # one tf.where around the overflowing formula
    return tf.where(x > 20, x, tf.math.log(1 + tf.exp(x)))


def double_where(x):  # the recipe's value, without a custom gradient
    positive = x > 0
    big = tf.where(positive, x, tf.zeros_like(x))
    small = tf.where(positive, tf.zeros_like(x), x)
    return tf.where(
        positive,
        big + tf.math.log1p(tf.exp(-big)),
        tf.math.log1p(tf.exp(small)),
    )


def max_abs(x):  # a common stable formula, with kinks at 0
    return tf.maximum(x, 0.0) + tf.math.log1p(tf.exp(-tf.abs(x)))


@tf.custom_gradient
def max_abs_sigmoid(x):  # the same value, with the recipe's grad
    return max_abs(x), lambda dy: dy * tf.sigmoid(x)


x = tf.constant([-20.0, 0.0, 89.0, 100.0])
print(f"float32 at x = {x.numpy()}:")
for f in (
    tf.math.softplus,
    where_after,
    double_where,
    max_abs,
    max_abs_sigmoid,
):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        jvp = acc.jvp(f(x))
    print(
        f"  {f.__name__}: value {y.numpy().round(4)}\n"
        f"    gradient {g.numpy().round(4)}, forward mode {jvp.numpy().round(4)}"
    )
