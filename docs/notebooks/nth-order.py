# %% [markdown]
# # The n-th derivative, with either decorator: a notebook to run <a id="nth-order"></a>
#
# The hands-on companion of the chapter *The n-th derivative*
# (https://custom-gradients-faq.github.io/custom-gradients-faq/nth-order/).
# Run the cells from top to bottom; each one prints a table against the closed form.
#
# The test function is sin, because its derivatives repeat and are easy to check:
# sin⁽ⁿ⁾(x) = sin(x + n·π/2). The general process is always the same: **nest one gradient computation per
# order**, and make sure every gradient you write yourself is built from differentiable TensorFlow ops (or is
# itself a custom-gradient function), so that the next level can differentiate it again.

# %% [markdown]
# ## Nested tapes, written once <a id="nested-tapes"></a>
#
# `nth_derivative(f, x, n)` opens one `GradientTape` per order, each inside the next: the n-th tape
# differentiates what the (n−1)-th computed. It works in eager mode and in `tf.function` alike.

# %%
import math

import numpy as np
import tensorflow as tf


def nth_derivative(f, x, n):
    """The n-th derivative of f at x: n GradientTapes, each one inside the next."""
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)  # inner tapes run while this one records
    return tape.gradient(y, x)


def table(f, orders=range(1, 7)):
    x = tf.constant(0.5, tf.float64)
    graph = tf.function(lambda v: [nth_derivative(f, v, n) for n in orders])(x)
    print("order | eager     | tf.function | closed form")
    for n, in_graph in zip(orders, graph):
        exact = math.sin(0.5 + n * math.pi / 2)
        eager = nth_derivative(f, x, n).numpy()
        print(f"{n:5} | {eager:+.6f} | {in_graph.numpy():+.6f}   | {exact:+.6f}")


table(tf.sin)

# %% [markdown]
# ## `tf.custom_gradient`: a custom gradient at every order <a id="custom-gradient-every-order"></a>
#
# `make_sin(k)` is the k-th derivative of sin, and its `grad` calls `make_sin(k + 1)`: a custom-gradient
# function whose gradient is again a custom-gradient function. Each order is written by you, and the nested
# tapes pick them up one after another. (If your first-order `grad` is made of plain TF ops, you do not need
# this: the tapes differentiate it automatically.)

# %%
def make_sin(k):
    """sin^(k)(x) = sin(x + k*pi/2), with a custom gradient that is sin^(k+1)."""

    @tf.custom_gradient
    def sin_k(x):
        def grad(dy):
            # the next order: again a custom-gradient function
            return dy * make_sin(k + 1)(x)

        return tf.sin(x + k * math.pi / 2), grad

    return sin_k


table(make_sin(0))

# %% [markdown]
# ## `tf.RegisterGradient`: a gradient for an op TensorFlow cannot look inside <a id="register-gradient"></a>
#
# `tf.numpy_function(np.sin, ...)` is an op of type `PyFunc`: TensorFlow has no gradient for it, just as for
# a custom C++ op. We register one under a new name and override `PyFunc` with it. Because the registered
# gradient is made of TF ops (`tf.cos`), differentiating the gradient again works: each order is one more
# `tf.gradients` call, inside `tf.function`.

# %%
def numpy_sin_grad(op, dy):
    return dy * tf.cos(op.inputs[0])  # TF ops: differentiable again


try:
    tf.RegisterGradient("NotebookNumpySinGrad")(numpy_sin_grad)
except KeyError:
    pass  # this cell ran before: the name is taken for the life of the kernel


def numpy_sin(x):
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map({"PyFunc": "NotebookNumpySinGrad"}):
        return tf.numpy_function(np.sin, [x], tf.float64)


@tf.function
def orders_0_to_6(x):
    derivatives = [numpy_sin(x)]
    for _ in range(6):
        # differentiate the last gradient once more
        derivatives.append(tf.gradients(derivatives[-1], x)[0])
    return derivatives


values = orders_0_to_6(tf.constant(0.5, tf.float64))
print("order | tf.gradients in tf.function | closed form")
for n in range(1, 7):
    exact = math.sin(0.5 + n * math.pi / 2)
    print(f"{n:5} | {values[n].numpy():+.6f}                   | {exact:+.6f}")

# %% [markdown]
# ## The same with nested tapes, outside the `tf.function` <a id="register-gradient-tapes"></a>
#
# An override map is read only by the graph's backward pass: `tf.gradients`, or a tape outside the `tf.function`
# that builds the op; an eager tape or a tape inside `tf.function` ignores it (the chapter shows where:
# https://custom-gradients-faq.github.io/custom-gradients-faq/registergradient-vs-custom-gradient/#where-override-applies).
# So `nth_derivative` works here too, run eagerly, when `numpy_sin` is a `tf.function`.

# %%
numpy_sin_function = tf.function(numpy_sin)  # the override is set inside this function's graph
x = tf.constant(0.5, tf.float64)
print("order | nested tapes outside tf.function | closed form")
for n in range(1, 7):
    exact = math.sin(0.5 + n * math.pi / 2)
    print(f"{n:5} | {nth_derivative(numpy_sin_function, x, n).numpy():+.6f}                        | {exact:+.6f}")

# %% [markdown]
# ## Every order costs a bigger graph <a id="cost"></a>
#
# Each level differentiates the whole computation of the level below, so the work grows with the order.
# Counting the ops that `tf.function` builds for orders 1 to 5 of a small function shows it (the exact counts
# depend on the TensorFlow version; the growth is the point).

# %%
def f(x):
    return tf.sin(x) * tf.exp(x)


counts = []
for n in range(1, 6):
    traced = tf.function(lambda v, n=n: nth_derivative(f, v, n)).get_concrete_function(
        tf.TensorSpec([], tf.float64))
    counts.append(len(traced.graph.get_operations()))
print("ops in the graph, orders 1..5:", counts)
print("grows with the order:", all(a < b for a, b in zip(counts, counts[1:])))

# %% [markdown]
# ## The recipe <a id="recipe"></a>
#
# 1. Write the function; if TensorFlow can differentiate all of it, nested tapes give every order.
# 2. If you add a custom gradient (`tf.custom_gradient`, or `tf.RegisterGradient` for an op type), build it from
#    differentiable TF ops, and the orders above come for free.
# 3. If the gradient must be opaque (a fused kernel), give it a custom gradient of its own, one level per order,
#    as `make_sin(k)` does.
# 4. Check each order against a closed form or `tf.test.compute_gradient` in `float64`.
