"""tf.where picks a safe branch, yet the gradient is nan; the double where fixes it."""

import tensorflow as tf

x = tf.constant([-1.0, 0.0, 4.0])


def gradient(f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x).numpy()


def log_or_zero(x):
    return tf.where(x > 0, tf.math.log(x), 0.0)


def log_or_zero_safe(x):
    safe_x = tf.where(x > 0, x, 1.0)  # log never sees x <= 0
    return tf.where(x > 0, tf.math.log(safe_x), 0.0)


print("x:                       ", x.numpy())
print("value, one where:        ", log_or_zero(x).numpy())
print("gradient, one where:     ", gradient(log_or_zero))
print("gradient, double where:  ", gradient(log_or_zero_safe))
