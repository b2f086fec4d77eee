"""Around cumprod's gradient at a zero without a custom gradient: the cost."""

import tensorflow as tf


def cumprod_doubling(x):
    """Prefix products by log2(n) doublings: only multiplications to trace."""
    s = 1
    while s < x.shape[-1]:
        front = tf.ones_like(x[..., :s])
        x, s = x * tf.concat([front, x[..., :-s]], axis=-1), 2 * s
    return x


def cumprod_eps(x, eps=1e-6):
    """Every factor moved by eps: the division never sees 0, the value moves."""
    return tf.math.cumprod(x + eps)


def cumprod_where(x, eps=1e-6):
    """Zeros replaced by eps: the trap, the zero gets no gradient at all."""
    return tf.math.cumprod(tf.where(tf.equal(x, 0), eps, x))


x = tf.constant([2.0, 3.0, 0.0], tf.float64)  # reference gradient [4, 2, 6]
for name, f in [
    ("tf.math.cumprod", tf.math.cumprod),
    ("doubling", cumprod_doubling),
    ("x + eps", cumprod_eps),
    ("where(x == 0)", cumprod_where),
]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        total = tf.reduce_sum(y)
    gradient = tape.gradient(total, x).numpy().round(4)
    with tf.autodiff.ForwardAccumulator(
        x, tf.constant([0.0, 0.0, 1.0], x.dtype)
    ) as acc:
        tangent = (
            acc.jvp(f(x)).numpy().round(4)
        )  # d/dx_2: the reference [0, 0, 6]
    print(
        f"{name:>15}: value {y.numpy().round(6).tolist()}, "
        f"gradient {gradient}, "
        f"forward mode d/dx_2 {tangent}"
    )
