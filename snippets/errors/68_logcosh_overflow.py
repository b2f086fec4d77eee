"""log(cosh(x)) written by hand in float32: between about 88 and 89.4 a
finite value with a gradient of 0, above that inf and nan; the form
x + softplus(-2x) - log 2 is the same function for every x and stable for
both signs."""

import math

import tensorflow as tf

x = tf.Variable([-100.0, 1.0, 88.0, 89.0, 100.0])
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
    print(f"{name}:")
    print(f"  value    {y.numpy().round(4)}")
    print(f"  gradient {g.numpy().round(3)}")
print(f"tanh(x):   {tf.tanh(x).numpy().round(3)}")
