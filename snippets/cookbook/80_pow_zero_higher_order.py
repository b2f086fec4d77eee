"""x ** p at x = 0: the derivative of order p + 1 and above is nan, not 0."""

import tensorflow as tf


def derivative(f, x, order):
    """The derivative of f of this order at x, with nested tapes."""
    if order == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = derivative(f, x, order - 1)
    return tape.gradient(y, x, unconnected_gradients="zero")


def reference(f, x, order, h=1e-3):
    """float64 central differences of the derivative one order lower, at
    x + h and x - h, where tf.pow's own derivatives are finite."""
    x = tf.cast(x, tf.float64)
    ends = derivative(f, x + h, order - 1), derivative(f, x - h, order - 1)
    return (ends[0] - ends[1]) / (2 * h)


def f(x):  # the report's polynomial
    return x + x**2 + x**3


print("x + x**2 + x**3 at x = [-1, 0, 1]:")
for order in (1, 2, 3):
    want = reference(f, tf.constant([-1.0, 0.0, 1.0]), order)
    print(f"  order {order}: reference {want.numpy().round(4)}")
    for dtype in (tf.float32, tf.float64):
        got = derivative(f, tf.constant([-1.0, 0.0, 1.0], dtype), order)
        print(f"    {dtype.name}: {got.numpy().round(4)}")

print("x ** p at x = 0, orders 1 to 4:")
for p in (0, 1, 2, 3):

    def power(x, p=p):
        return x**p

    x = tf.constant([0.0], tf.float64)
    want = [reference(power, x, n)[0] for n in (1, 2, 3, 4)]
    print(f"  p = {p}: reference {tf.stack(want).numpy().round(4)}")
    for dtype in (tf.float32, tf.float64):
        x = tf.constant([0.0], dtype)
        got = [derivative(power, x, n)[0] for n in (1, 2, 3, 4)]
        print(f"    {dtype.name}: {tf.stack(got).numpy()}")
