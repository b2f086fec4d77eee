"""Custom gradients at every order for sigmoid, from its polynomials."""

import math

import tensorflow as tf
from numpy.polynomial import Polynomial


def sigmoid_poly(k):
    p = Polynomial([0, 1])
    for _ in range(k):  # d/dx q(s) = q'(s) * s * (1 - s)
        p = p.deriv() * Polynomial([0, 1, -1])
    return p


def make_sigmoid(k):
    """sigmoid^(k)(x) from its closed form; its grad is make_sigmoid(k+1)."""
    coefficients = sigmoid_poly(k).coef[::-1].tolist()  # highest power first

    @tf.custom_gradient
    def sigmoid_k(x):
        s = tf.sigmoid(x)
        y = tf.zeros_like(s)
        for c in coefficients:  # Horner's rule
            y = y * s + c
        return y, lambda dy: dy * make_sigmoid(k + 1)(x)

    return sigmoid_k


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


@tf.function
def orders_1_to_8_in_graph(x):
    return [nth_derivative(make_sigmoid(0), x, n) for n in range(1, 9)]


x = tf.constant(0.5, tf.float64)
in_graph = orders_1_to_8_in_graph(x)
print("order | eager         | tf.function   | closed form   | abs error")
for n in range(1, 9):
    eager = nth_derivative(make_sigmoid(0), x, n).numpy()
    graph = in_graph[n - 1].numpy()
    exact = sigmoid_poly(n)(1 / (1 + math.exp(-0.5)))
    error = max(abs(eager - exact), abs(graph - exact))
    row = [f"{eager:+.10f}", f"{graph:+.10f}", f"{exact:+.10f}"]
    print(f"{n:5} | " + " | ".join(row) + f" | {error:.1e}")
