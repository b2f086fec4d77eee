"""The gradient of tf.norm at the zero vector is nan; two fixes."""

import tensorflow as tf

zero = tf.zeros([3])
tiny = tf.constant([1e-20, 0.0, 0.0])  # float32: 1e-20 squared flushes to 0
tiny64 = tf.constant([1e-20, 0.0, 0.0], tf.float64)  # float64: it does not


def value_and_gradient(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y.numpy(), tape.gradient(y, x).numpy()


@tf.custom_gradient
def safe_norm(x):
    n = tf.norm(x)

    def grad(dy):
        return dy * tf.math.divide_no_nan(x, n)  # 0 where n == 0

    return n, grad


def norm_with_epsilon(x):
    return tf.sqrt(tf.reduce_sum(x**2) + 1e-12)


for label, f, x in [
    ("tf.norm at zero:    ", tf.norm, zero),
    ("tf.norm at 1e-20:   ", tf.norm, tiny),
    ("the same in float64:", tf.norm, tiny64),
    ("epsilon inside sqrt:", norm_with_epsilon, zero),
    ("safe_norm at zero:  ", safe_norm, zero),
]:
    value, grad = value_and_gradient(f, x)
    print(f"{label} value {value}, gradient {grad}")
