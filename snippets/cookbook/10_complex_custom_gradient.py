"""A custom gradient for a complex function in TensorFlow's convention, proven."""

import tensorflow as tf


# --8<-- [start:recipe]
@tf.custom_gradient
def square(z):
    """z * z with its gradient in TensorFlow's convention."""

    def grad(dy):
        # holomorphic f: return dy * conj(f'(z)), not dy * f'(z)
        return dy * tf.math.conj(2.0 * z)

    return z * z, grad


@tf.custom_gradient
def abs_squared(z):
    """z * conj(z), not holomorphic: Wirtinger derivatives
    df/dz = conj(z) and df/dconj(z) = z."""

    def grad(dy):
        # dy * conj(df/dz) + conj(dy) * df/dconj(z)
        return dy * z + tf.math.conj(dy) * z

    return z * tf.math.conj(z), grad


# --8<-- [end:recipe]

z = tf.constant(1.0 + 2.0j, tf.complex128)
with tf.GradientTape() as tape:
    tape.watch(z)
    loss = tf.abs(square(z)) ** 2
print("gradient of |square(z)|**2:", tape.gradient(loss, z).numpy())
