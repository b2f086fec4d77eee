"""tf.math.zeta(x, q): the gradient in x is silently None; in q it works."""

import tensorflow as tf

for dtype in (tf.float32, tf.float64):
    x, q = tf.constant(3.0, dtype), tf.constant(0.5, dtype)
    with tf.GradientTape() as tape:
        tape.watch([x, q])
        z = tf.math.zeta(x, q)
    dx, dq = tape.gradient(z, [x, q])
    print(f"{dtype.name}: zeta(3, 0.5) = {z:.6f}, d/dx {dx}, d/dq {dq:.6f}")

x, q, h = tf.constant(3.0, tf.float64), tf.constant(0.5, tf.float64), 1e-6
in_x = (tf.math.zeta(x + h, q) - tf.math.zeta(x - h, q)) / (2 * h)
in_q = (tf.math.zeta(x, q + h) - tf.math.zeta(x, q - h)) / (2 * h)
print(f"reference (central differences): d/dx {in_x:.6f}, d/dq {in_q:.6f}")
