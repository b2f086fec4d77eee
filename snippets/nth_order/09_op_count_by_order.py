"""Graph size by order: nested tapes vs a custom gradient at every order."""

import tensorflow as tf
from numpy.polynomial import Polynomial


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


def make_sigmoid(k):  # as in 05_custom_gradient_recursion_sigmoid.py
    p = Polynomial([0, 1])
    for _ in range(k):
        p = p.deriv() * Polynomial([0, 1, -1])
    coefficients = p.coef[::-1].tolist()

    @tf.custom_gradient
    def sigmoid_k(x):
        s = tf.sigmoid(x)
        y = tf.zeros_like(s)
        for c in coefficients:
            y = y * s + c
        return y, lambda dy: dy * make_sigmoid(k + 1)(x)

    return sigmoid_k


def op_count(f, n):
    """Ops in the graph tf.function traces for the n-th derivative of f."""
    traced = tf.function(lambda x: nth_derivative(f, x, n))
    spec = tf.TensorSpec([], tf.float64)
    return len(traced.get_concrete_function(spec).graph.get_operations())


print("order | tapes on tf.sin | tapes on tf.sigmoid | tapes on make_sigmoid")
for n in range(1, 9):
    counts = [
        op_count(tf.sin, n),
        op_count(tf.sigmoid, n),
        op_count(make_sigmoid(0), n),
    ]
    print(f"{n:5} | {counts[0]:15} | {counts[1]:19} | {counts[2]:21}")
