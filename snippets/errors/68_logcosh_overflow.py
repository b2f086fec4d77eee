"""log(cosh(x)) written by hand: inf value and nan gradient for a large x
in float32; the stable form gives 99.3069 and tanh(x) = 1."""

import math

import tensorflow as tf

x = tf.Variable([1.0, 50.0, 100.0])
forms = {
    "log(cosh(x))": lambda x: tf.math.log(tf.math.cosh(x)),
    "x + softplus(-2x) - log 2": (
        lambda x: x + tf.math.softplus(-2.0 * x) - math.log(2.0)
    ),
}
for name, f in forms.items():
    with tf.GradientTape() as tape:
        y = f(x)
    g = tape.gradient(y, x)
    print(
        f"{name:>25}: value {y.numpy().round(4)}, gradient {g.numpy().round(4)}"
    )
print(f"{'tanh(x)':>25}: {tf.tanh(x).numpy().round(4)}")
