"""A custom gradient at every order: make_sin(k)'s grad calls make_sin(k+1)."""

import math

import tensorflow as tf


def make_sin(k):
    """sin^(k)(x) = sin(x + k*pi/2); its custom gradient is sin^(k+1)."""

    @tf.custom_gradient
    def sin_k(x):
        def grad(dy):
            return dy * make_sin(k + 1)(x)  # again a custom-gradient function

        return tf.sin(x + k * math.pi / 2), grad

    return sin_k


def nth_derivative(f, x, n):
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)
    return tape.gradient(y, x)


@tf.function
def orders_1_to_8_in_graph(x):
    return [nth_derivative(make_sin(0), x, n) for n in range(1, 9)]


x = tf.constant(0.5, tf.float64)
in_graph = orders_1_to_8_in_graph(x)
print("order | eager         | tf.function   | closed form   | abs error")
for n in range(1, 9):
    eager = nth_derivative(make_sin(0), x, n).numpy()
    graph = in_graph[n - 1].numpy()
    exact = math.sin(0.5 + n * math.pi / 2)
    error = max(abs(eager - exact), abs(graph - exact))
    row = [f"{eager:+.10f}", f"{graph:+.10f}", f"{exact:+.10f}"]
    print(f"{n:5} | " + " | ".join(row) + f" | {error:.1e}")
