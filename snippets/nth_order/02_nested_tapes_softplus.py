"""nth_derivative on softplus, checked against the sigmoid polynomials."""

import math

import tensorflow as tf
from numpy.polynomial import Polynomial


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


def sigmoid_poly(k):
    """The k-th derivative of sigmoid as a polynomial in s = sigmoid(x)."""
    p = Polynomial([0, 1])  # sigmoid itself: s
    for _ in range(k):  # d/dx q(s) = q'(s) * s * (1 - s)
        p = p.deriv() * Polynomial([0, 1, -1])
    return p


@tf.function
def orders_1_to_8_in_graph(x):
    return [nth_derivative(tf.math.softplus, x, n) for n in range(1, 9)]


x = tf.constant(0.5, tf.float64)
s = 1 / (1 + math.exp(-0.5))
in_graph = orders_1_to_8_in_graph(x)
print("order | eager         | tf.function   | closed form   | abs error")
for n in range(1, 9):
    eager = nth_derivative(tf.math.softplus, x, n).numpy()
    graph = in_graph[n - 1].numpy()
    exact = sigmoid_poly(n - 1)(s)  # softplus^(n) = sigmoid^(n-1)
    error = max(abs(eager - exact), abs(graph - exact))
    row = [f"{eager:+.10f}", f"{graph:+.10f}", f"{exact:+.10f}"]
    print(f"{n:5} | " + " | ".join(row) + f" | {error:.1e}")
coefficients = sigmoid_poly(3).coef.astype(int).tolist()
print("sigmoid''' as a polynomial in s (s^0, s^1, ...):", coefficients)
