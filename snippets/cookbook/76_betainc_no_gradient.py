"""tf.math.betainc(a, b, x): the gradients in a and b are silently None."""

import tensorflow as tf

for dtype in (tf.float32, tf.float64):
    a, b, x = (tf.constant(v, dtype) for v in (2.0, 3.0, 0.4))
    with tf.GradientTape() as tape:
        tape.watch([a, b, x])
        y = tf.math.betainc(a, b, x)
    da, db, dx = tape.gradient(y, [a, b, x])
    print(f"{dtype.name}: d/da {da}, d/db {db}, d/dx {dx:.6f}")

a, b, x = (tf.constant(v, tf.float64) for v in (2.0, 3.0, 0.4))
h = 1e-6
in_a = (tf.math.betainc(a + h, b, x) - tf.math.betainc(a - h, b, x)) / (2 * h)
in_b = (tf.math.betainc(a, b + h, x) - tf.math.betainc(a, b - h, x)) / (2 * h)
print(f"reference (central differences): d/da {in_a:.6f}, d/db {in_b:.6f}")
