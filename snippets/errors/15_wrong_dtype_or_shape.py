"""grad returns the wrong dtype or shape: the error comes when gradients are added."""

import tensorflow as tf


@tf.custom_gradient
def wrong_dtype(x):
    def grad(dy):
        return tf.cast(dy, tf.float64) * 2.0  # BUG: x is float32

    return 2.0 * x, grad


@tf.custom_gradient
def wrong_shape(x):
    def grad(dy):
        # BUG: shape (1,), not (3,)
        return tf.reduce_sum(dy, keepdims=True) * 2.0

    return 2.0 * x, grad


x = tf.constant([1.0, 2.0, 3.0])
for f in [wrong_dtype, wrong_shape]:
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        alone = f(x)
        used_twice = f(x) + x
    g = tape.gradient(alone, x)
    print(f"{f.__name__}: alone -> {g.dtype.name} {g.shape}")
    try:
        tape.gradient(used_twice, x)
    except tf.errors.InvalidArgumentError as e:
        # drop TF's op and device decorations around the message
        message = e.message.split("}} ")[-1].split(" [Op:")[0]
        print(f"{f.__name__}: used twice -> {type(e).__name__}: {message}")
