"""tf.math.angle at zero without a custom gradient: a double tf.where."""

import tensorflow as tf


def angle_double_where(z):
    """tf.math.angle never sees 0: a zero is replaced by 1, angle 0."""
    zero = tf.equal(z, 0)
    angle = tf.math.angle(tf.where(zero, tf.ones_like(z), z))
    return tf.where(zero, tf.zeros_like(angle), angle)


def angle_one_where(z):  # the trap: the where is after the 0 / 0
    angle = tf.math.angle(z)
    return tf.where(tf.equal(z, 0), tf.zeros_like(angle), angle)


def atan2_of_parts(z):  # the same angle, the same 0 / 0 in atan2's gradient
    return tf.math.atan2(tf.math.imag(z), tf.math.real(z))


for name, f in [
    ("double where", angle_double_where),
    ("one where", angle_one_where),
    ("atan2(imag, real)", atan2_of_parts),
]:
    for dtype in (tf.complex64, tf.complex128):
        z = tf.constant([0j, 3 + 4j, 1e-30j], dtype)
        with tf.GradientTape() as tape:
            tape.watch(z)
            a = f(z)
        g = ", ".join(f"{v:.4g}" for v in tape.gradient(a, z).numpy())
        print(f"{name:>17}, {dtype.name:10}: gradient [{g}]")

p = tf.constant([0.0, 0.0], tf.float64)  # forward mode at z = 0
with tf.autodiff.ForwardAccumulator(
    p, tf.constant([0.6, 0.8], tf.float64)
) as acc:
    a = angle_double_where(tf.complex(p[0], p[1]))
print(f"double where, forward mode at 0 along (0.6, 0.8): {acc.jvp(a):g}")
