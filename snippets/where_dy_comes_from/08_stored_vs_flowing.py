"""What is stored (e, computed in the forward pass) and what flows (dy, new on every backward pass)."""

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)  # stored: computed once, kept alive by the grad closure
    print(f"forward: computes and stores e = {float(e):.4f}")

    def grad(dy):
        print(
            f"  backward: uses stored e = {float(e):.4f}, "
            f"receives dy = {float(dy):.4f}"
        )
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


x = tf.constant(1.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = log1pexp(x)  # the only forward pass
    targets = {"y": y, "3 * y": 3.0 * y, "y ** 2": y**2}
print(f"y = {float(y):.4f}")
for name, target in targets.items():
    print(f"tape.gradient({name}, x):")
    print(f"  result = {float(tape.gradient(target, x)):.4f}")
