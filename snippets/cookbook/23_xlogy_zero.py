"""tf.math.xlogy and xlog1py at x = 0: d/dx is 0, not log(y)."""

import tensorflow as tf

H = 1e-6  # the float64 reference: central differences in x


def along_x(f, x, y):
    return (f(x + H, y) - f(x - H, y)) / (2 * H)


for f in (tf.math.xlogy, tf.math.xlog1py):
    x, y = 0.0, 2.0
    reference = along_x(
        f, tf.constant(x, tf.float64), tf.constant(y, tf.float64)
    )
    print(f"{f.__name__}(x, y) at x = 0, y = 2: d/dx reference {reference:.4f}")
    for dtype in (tf.float32, tf.float64):
        x, y = tf.constant(0.0, dtype), tf.constant(2.0, dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            z = f(x, y)
        print(f"  {dtype.name}: d/dx {tape.gradient(z, x):.4f}")

# Order 2: d/dy (d/dx x log y) = 1 / y, also at x = 0 (the xdivy gradient)
x, y = tf.constant(0.0, tf.float64), tf.constant(2.0, tf.float64)
with tf.GradientTape() as outer:
    outer.watch(y)
    with tf.GradientTape() as inner:
        inner.watch(x)
        z = tf.math.xlogy(x, y)
    dx = inner.gradient(z, x)
h, f = 1e-4, tf.math.xlogy  # the reference: a mixed central difference
reference = (
    f(x + h, y + h) - f(x + h, y - h) - f(x - h, y + h) + f(x - h, y - h)
) / (4 * h * h)
print(
    f"xlogy d2/dxdy at x = 0, y = 2: {outer.gradient(dx, y):.4f}, "
    f"reference {reference:.4f}"
)

# The other order: d/dx (d/dy x log y), through the gradient of tf.math.xdivy
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(y)
        z = tf.math.xlogy(x, y)
    dy = inner.gradient(z, y)
print(f"xlogy d2/dydx at x = 0, y = 2: {outer.gradient(dy, x):.4f}")
