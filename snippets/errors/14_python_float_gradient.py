"""grad returns a Python float: no error at first, a bare AssertionError later."""

import tensorflow as tf


@tf.custom_gradient
def double(x):
    def grad(dy):
        return 2.0  # BUG: a Python float, not dy * 2.0 (a tensor shaped like x)

    return 2.0 * x, grad


x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = double(x)
    z = double(x) * x  # x is used twice: TensorFlow must add two gradients
g = tape.gradient(y, x)
print(
    f"gradient of y: {g!r} (a Python "
    f"{type(g).__name__}) for x of shape {x.shape}"
)
try:
    tape.gradient(z, x)
except AssertionError as e:
    print(f"gradient of z: {type(e).__name__}, message: {str(e)!r}")
