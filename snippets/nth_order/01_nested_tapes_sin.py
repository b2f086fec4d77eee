"""nth_derivative written once: sin up to order 8, eager and in tf.function."""

import math

import tensorflow as tf


def nth_derivative(f, x, n):
    """The n-th derivative of f at x: n tapes, each inside the next."""
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)  # inner tapes run while this records
    return tape.gradient(y, x)


@tf.function
def orders_1_to_8_in_graph(x):
    return [nth_derivative(tf.sin, x, n) for n in range(1, 9)]


x = tf.constant(0.5, tf.float64)
in_graph = orders_1_to_8_in_graph(x)
print("order | eager         | tf.function   | closed form   | abs error")
for n in range(1, 9):
    eager = nth_derivative(tf.sin, x, n).numpy()
    graph = in_graph[n - 1].numpy()
    exact = math.sin(0.5 + n * math.pi / 2)  # sin^(n)(x) = sin(x + n*pi/2)
    error = max(abs(eager - exact), abs(graph - exact))
    row = [f"{eager:+.10f}", f"{graph:+.10f}", f"{exact:+.10f}"]
    print(f"{n:5} | " + " | ".join(row) + f" | {error:.1e}")
