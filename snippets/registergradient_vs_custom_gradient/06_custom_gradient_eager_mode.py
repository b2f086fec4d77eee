"""Eager mode: tf.custom_gradient records grad on the tape only."""

import tensorflow as tf

# a private module, used here only to look into the gradient registry:
from tensorflow.python.framework import ops


@tf.custom_gradient
def round_ste(x):
    print("  forward pass runs")

    def grad(dy):
        print("  grad called with dy =", dy.numpy())
        return dy

    return tf.round(x), grad


def count():  # CustomGradient-<uid> names in the process-wide registry
    names = ops.gradient_registry.list()
    return sum(n.startswith("CustomGradient-") for n in names)


before = count()
x = tf.constant([0.2, 1.7])

print("1) no tape:")
y = round_ste(x)  # nothing is recorded, grad is never called

print("2) under a tape:")
with tf.GradientTape() as tape:
    tape.watch(x)
    y = round_ste(x)  # the tape stores (inputs, outputs, grad)
    loss = tf.reduce_sum(tf.constant([1.0, 2.0]) * y)
print("   forward done, grad not called yet")
print("3) tape.gradient:")
print("   dL/dx =", tape.gradient(loss, x).numpy())
print("names registered in eager mode:", count() - before)
