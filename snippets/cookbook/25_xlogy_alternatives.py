"""x * log(y) when y > 0; and p log p at p = 0, where no gradient is safe."""

import re

import tensorflow as tf


@tf.custom_gradient
def xlogy(x, y):  # the recipe, copied
    def grad(dz):
        zero = tf.logical_and(tf.equal(x, 0), tf.equal(y, 0))
        safe_y = tf.where(zero, tf.ones_like(y), y)
        masked = tf.logical_and(tf.equal(dz, 0), tf.equal(y, 0))
        live_y = tf.where(masked, tf.ones_like(y), y)
        return dz * tf.math.log(live_y), dz * x / safe_y

    return tf.math.xlogy(x, y), grad


def plain(x, y):
    """Where y > 0 everywhere, no special case is needed at all."""
    return x * tf.math.log(y)


x, y = tf.constant([0.0, 0.0], tf.float64), tf.constant([2.0, 0.0], tf.float64)
for name, f in [
    ("tf.math.xlogy", tf.math.xlogy),
    ("recipe", xlogy),
    ("x * log(y)", plain),
]:
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = f(x, y)
    dx, dy = tape.gradient(z, [x, y])
    print(
        f"{name:>13} at x = 0, y = [2, 0]: value {z.numpy()}, "
        f"d/dx {dx.numpy().round(4)}, d/dy {dy.numpy()}"
    )

# A masked entry (upstream gradient 0) where x = y = 0 gets 0, not 0 * -inf,
# at order 1 and at order 2
m = tf.constant([0.0, 1.0], tf.float64)
x, y = tf.constant([0.0, 0.5], tf.float64), tf.constant([0.0, 0.5], tf.float64)
for name, f in [("tf.math.xlogy", tf.math.xlogy), ("recipe", xlogy)]:
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, y])
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = tf.reduce_sum(m * f(x, y))
        dx, dy = tape.gradient(z, [x, y])
    order2 = [  # of the masked entry: d2/dx2, d2/dxdy, d2/dydx, d2/dy2
        float(outer.gradient(d, v, unconnected_gradients="zero")[0])
        for d in (dx, dy)
        for v in (x, y)
    ]
    print(
        f"{name:>13}, mask [0, 1], x = y = [0, 0.5]: d/dx {dx.numpy().round(4)}, "
        f"order 2 of the masked entry {order2}"
    )

# With a scalar y a tape raises no error: its d/dy has x's shape; tf.gradients
# compares the shapes and raises
x, y = tf.constant([0.0, 1.0], tf.float64), tf.constant(2.0, tf.float64)
with tf.GradientTape() as tape:
    tape.watch(y)
    z = xlogy(x, y)
print(
    f"recipe, x of shape [2], scalar y, a tape: d/dy of shape {tape.gradient(z, y).shape}"
)


@tf.function
def by_tf_gradients(x, y):
    return tf.gradients(tf.reduce_sum(xlogy(x, y)), [x, y])


try:
    by_tf_gradients(x, y)
except ValueError as e:
    message = re.search(r"Incompatible shapes[^.]*", str(e))[0]
    print(
        f"recipe, x of shape [2], scalar y, tf.gradients: ValueError: {message}"
    )

# The entropy term p log p = xlogy(p, p): its true slope at p = 0 is -inf
p = tf.constant([0.0, 0.5], tf.float64)
for name, f in [("tf.math.xlogy", tf.math.xlogy), ("recipe", xlogy)]:
    with tf.GradientTape() as tape:
        tape.watch(p)
        z = f(p, p)
    slope = tape.gradient(z, p).numpy().round(4)
    print(f"{name:>13}: d/dp p log p at p = [0, 0.5]: {slope}")
