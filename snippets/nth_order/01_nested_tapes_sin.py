"""Nested GradientTapes written once: derivatives of sin up to order 8, eager and in tf.function."""
import math

import tensorflow as tf


def nth_derivative(f, x, n):
    """The n-th derivative of f at x: n GradientTapes, each one inside the next."""
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)  # the inner tapes run while this tape records
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
    print(f"{n:5} | {eager:+.10f} | {graph:+.10f} | {exact:+.10f} | {error:.1e}")
