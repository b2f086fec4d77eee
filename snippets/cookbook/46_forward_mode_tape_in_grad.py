"""Forward mode calls grad while recording; a tape inside grad sees nothing."""

import tensorflow as tf


@tf.custom_gradient
def square(x):
    def grad(dy):
        with tf.GradientTape(persistent=True) as tape:  # as in the recipe
            tape.watch(x)
            y = x * x
        inner = tape.gradient(y, x)
        zero = tape.gradient(y, x, unconnected_gradients="zero")
        print(f"  in grad: tape.gradient {inner}, with ZERO {zero}")
        return dy * 2 * x

    return x * x, grad


x = tf.constant(3.0)
print("reverse mode (tf.GradientTape):")
with tf.GradientTape() as tape:
    tape.watch(x)
    y = square(x)
print(f"  gradient {tape.gradient(y, x)}")
print("forward mode (tf.autodiff.ForwardAccumulator):")
with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
    y = square(x)
print(f"  jvp {acc.jvp(y)}")
