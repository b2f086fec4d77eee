"""Without a custom gradient: products, polyval, tf.where, x + eps, 0 ** e."""

import tensorflow as tf


def derivative(f, x, order):
    """The derivative of f of this order at x, with nested tapes."""
    if order == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = derivative(f, x, order - 1)
    return tape.gradient(y, x, unconnected_gradients="zero")


def products(x):
    return x + x * x + x * x * x


def polyval(x):  # Horner's rule: multiplications and additions only
    return tf.math.polyval([tf.ones_like(x)] * 3 + [tf.zeros_like(x)], x)


def where_trap(x):  # x ** p on a tensor that is never 0, then 0 put back
    at_zero = tf.equal(x, 0)
    safe = tf.where(at_zero, tf.ones_like(x), x)
    return tf.where(at_zero, tf.zeros_like(x), safe + safe**2 + safe**3)


def plus_eps(x, eps=1e-6):
    return (x + eps) + (x + eps) ** 2 + (x + eps) ** 3


x = tf.constant([0.0], tf.float64)
print("x + x**2 + x**3 at x = 0, orders 1 to 4 (reference [1, 2, 6, 0]):")
for f in (products, polyval, where_trap, plus_eps):
    got = tf.concat([derivative(f, x, n) for n in (1, 2, 3, 4)], 0)
    print(f"  {f.__name__:>10}: {got.numpy().round(6)}")
print(f"  plus_eps value at 0: {plus_eps(x).numpy()[0]:.1e}, not 0")


def zero_to_the(e):
    return tf.pow(tf.constant(0.0, tf.float64), e)


e = tf.constant([0.5, 2.0], tf.float64)
in_e = [derivative(zero_to_the, e, n).numpy() for n in (1, 2)]
print(f"0 ** e at e = [0.5, 2]: d/de {in_e[0]}, d2/de2 {in_e[1]}")

for dtype in (tf.float32, tf.float64):
    x = tf.constant([0.0, 0.5], dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x ** (1 / 2.4)
    grad = tape.gradient(y, x).numpy().round(4)
    print(f"x ** (1 / 2.4) at x = [0, 0.5], {dtype.name}: d/dx {grad}")
