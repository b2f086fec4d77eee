"""Two outputs, grad(dy) with one argument: a TypeError. grad gets one upstream
gradient per output."""

import tensorflow as tf


@tf.custom_gradient
def two_outputs(x):
    def grad(upstream):  # wrong: two outputs send two upstream gradients
        return upstream * 2.0

    return (x * 2.0, x * 3.0), grad


@tf.custom_gradient
def two_outputs_fixed(x):
    def grad(upstream_a, upstream_b):  # one per output, in order
        return upstream_a * 2.0 + upstream_b * 3.0

    return (x * 2.0, x * 3.0), grad


x = tf.constant(1.0)
for f in [two_outputs, two_outputs_fixed]:
    for target in ["a + b", "a only"]:
        try:
            with tf.GradientTape() as tape:
                tape.watch(x)
                a, b = f(x)
                y = a + b if target == "a + b" else a
            print(f"{f.__name__}, {target}: {tape.gradient(y, x).numpy()}")
        except TypeError as e:
            print(f"{f.__name__}, {target}: TypeError: {e}")
