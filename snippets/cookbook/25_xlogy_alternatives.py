"""x * log(y) when y > 0; and p log p at p = 0, where no gradient is safe."""

import tensorflow as tf


@tf.custom_gradient
def xlogy(x, y):  # the recipe, copied
    def grad(dz):
        safe_y = tf.where((x == 0) & (y == 0), tf.ones_like(y), y)
        return dz * tf.math.log(y), dz * x / safe_y

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

# The entropy term p log p = xlogy(p, p): its true slope at p = 0 is -inf
p = tf.constant([0.0, 0.5], tf.float64)
for name, f in [("tf.math.xlogy", tf.math.xlogy), ("recipe", xlogy)]:
    with tf.GradientTape() as tape:
        tape.watch(p)
        z = f(p, p)
    slope = tape.gradient(z, p).numpy().round(4)
    print(f"{name:>13}: d/dp p log p at p = [0, 0.5]: {slope}")
