"""tf.recompute_grad with the same tensor passed as two arguments."""

import tensorflow as tf


@tf.recompute_grad
def add(a, b):
    return a + b


def gradient():
    x = tf.ones(3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(add(x, x))  # d/dx of sum(x + x) is 2 everywhere
    return tape.gradient(y, x)


print("eager:      ", gradient().numpy())
print("tf.function:", tf.function(gradient)().numpy())
