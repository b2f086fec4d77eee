"""grad returns None for an input: tape.gradient gives None, not an error."""

import tensorflow as tf


@tf.custom_gradient
def scaled(x, factor):
    def grad(dy):
        return dy * factor, None  # None: "no gradient for `factor`"

    return x * factor, grad


x, factor = tf.constant(2.0), tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, factor])
    y = scaled(x, factor)
dx, dfactor = tape.gradient(y, [x, factor])
print("dy/dx      =", dx.numpy())
print("dy/dfactor =", dfactor)
zero = tf.UnconnectedGradients.ZERO
zeros = tape.gradient(y, [x, factor], unconnected_gradients=zero)
print("with unconnected_gradients=ZERO:", [f"{g.numpy():.1f}" for g in zeros])
