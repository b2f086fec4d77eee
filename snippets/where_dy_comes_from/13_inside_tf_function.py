"""Inside tf.function, Python code (grad included) runs once, at tracing; tf.print runs on every call
(with the tape inside)."""

import sys

import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    print("  forward: Python code runs (tracing)")
    e = tf.exp(x)

    def grad(dy):
        print(
            "  backward: grad's Python code runs (tracing), "
            f"dy is symbolic: {type(dy).__name__}"
        )
        # runs on every call
        tf.print("  backward: dy =", dy, output_stream=sys.stdout)
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


@tf.function
def dL_dx(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = 3.0 * log1pexp(x)
    return tape.gradient(L, x)


for value in (0.0, 1.0):
    print(f"call with x = {value}:")
    result = dL_dx(tf.constant(value))
    print(f"  result = {float(result):.4f}")

print("tape outside the tf.function, x = 0.0:")
outside = tf.function(log1pexp)
x = tf.constant(0.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    L = 3.0 * outside(x)
    print("  forward pass done")
print(f"  result = {float(tape.gradient(L, x)):.4f}")

print("a persistent tape outside the same tf.function, x = 0.0:")
with tf.GradientTape(persistent=True) as tape:  # allows higher orders
    tape.watch(x)
    L = 3.0 * outside(x)
    print("  forward pass done")
print(f"  result = {float(tape.gradient(L, x)):.4f}")
