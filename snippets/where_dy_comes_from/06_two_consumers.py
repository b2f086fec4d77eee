"""One output, two consumers: the tape adds their contributions and calls grad once with the sum."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    print(f"forward: log1pexp runs, x = {float(x):.4f}")
    e = tf.exp(x)

    def grad(dy):
        print(f"  backward: grad runs, dy = {float(dy):.4f}")
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.constant(0.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = log1pexp(x)
    a = 3.0 * y  # consumer 1
    b = y**2  # consumer 2
    L = a + b
print(
    f"forward pass done: y = {float(y):.4f}, a = 3*y = {float(a):.4f}, "
    f"b = y**2 = {float(b):.4f}, L = a + b = {float(L):.4f}"
)
for name, target in [("a", a), ("b", b), ("L", L)]:
    print(f"tape.gradient({name}, x):")
    print(f"  result = {float(tape.gradient(target, x)):.4f}")
