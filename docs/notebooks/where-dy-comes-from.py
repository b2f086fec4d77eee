# %% [markdown]
# # Where does `dy` come from? A notebook to run <a id="where-dy-comes-from"></a>
#
# This notebook is the hands-on companion of the chapter *Where does `dy` come from?*
# (https://custom-gradients-faq.github.io/custom-gradients-faq/where-dy-comes-from/).
# Run the cells from top to bottom; each one prints what it computes, so you can watch `grad(dy)` being called
# and see which `dy` it receives.
#
# The idea to check: `dy` is the upstream gradient dL/dy, the derivative of the **target** L (what you pass to `tape.gradient`)
# with respect to the output y of your function. It does not exist after the forward pass; the tape makes it
# during the backward pass and hands it to your `grad`.
#
# Today's `tf.custom_gradient` API page (TensorFlow 2.6 and later) names the same argument `upstream` and says
# `upstream = dy/dy = 1.0` for its example; this notebook keeps the older name, `dy`.

# %% [markdown]
# ## The function, with two prints <a id="the-function"></a>
#
# `log1pexp` from the `tf.custom_gradient` API page, with one `print` in the forward function and one in `grad`.
# At `x = 0` the numbers are easy to check by hand: y = log 2 = 0.6931, and the local derivative is
# σ(0) = 0.5.

# %%
import numpy as np
import tensorflow as tf


def fmt(t):
    """A tensor as numbers rounded to 4 decimals, for printing."""
    four_decimals = {"float_kind": lambda v: f"{v:.4f}"}
    return np.array2string(np.asarray(t), formatter=four_decimals)


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    y = tf.math.log(1 + e)
    print(f"  forward pass: y = {fmt(y)}; grad is stored, not called")

    def grad(dy):
        local = 1 - 1 / (1 + e)  # dy/dx = sigmoid(x)
        print(f"  grad called with dy = {fmt(dy)}, "
              f"returns dy * {fmt(local)} = {fmt(dy * local)}")
        return dy * local

    return y, grad


x = tf.constant(0.0)
print("x =", fmt(x))

# %% [markdown]
# ## The output itself is the target: `dy = 1` <a id="output-is-the-target"></a>
#
# The forward pass runs first and prints its line; `grad` prints only when `tape.gradient` runs. The tape starts
# at the target with dL/dL = 1; here the target is y itself, so `dy = 1`.

# %%
print("1. inside the tape:")
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print("2. tape.gradient(y, x):")
print("dL/dx =", fmt(tape.gradient(y, x)))

# %% [markdown]
# ## `L = 3·y`: `dy = 3` <a id="l-equals-3y"></a>
#
# Now the target is L = 3y. Before it reaches `log1pexp`, the tape goes back through the multiplication by 3,
# so it arrives with dL/dy = 3.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    L = 3.0 * log1pexp(x)
print("dL/dx =", fmt(tape.gradient(L, x)))

# %% [markdown]
# ## `L = y²`: `dy = 2y` <a id="l-equals-y-squared"></a>
#
# dL/dy = 2y = 2 · 0.6931 = 1.3863: `dy` depends on the value of y from the forward pass, which is why
# it can only be computed after the forward pass.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
    L = y * y
print("dL/dx =", fmt(tape.gradient(L, x)))

# %% [markdown]
# ## Choosing the first `dy` yourself: `output_gradients` <a id="output-gradients"></a>
#
# `tape.gradient(y, x, output_gradients=...)` replaces the starting 1 with a value of your choice. With one
# function between the target and `x`, your value arrives in `grad` unchanged.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print("dL/dx =", fmt(tape.gradient(y, x, output_gradients=tf.constant(10.0))))

# %% [markdown]
# ## A vector output: `dy` has the shape of `y` <a id="vector-output"></a>
#
# With three inputs, `y` has three elements and so does `dy`: one dL/dy_i per element. The target
# L = 1 · y_0 + 2 · y_1 + 3 · y_2 gives `dy = [1, 2, 3]`.

# %%
xs = tf.constant([-1.0, 0.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(xs)
    L = tf.reduce_sum(tf.constant([1.0, 2.0, 3.0]) * log1pexp(xs))
print("dL/dx =", fmt(tape.gradient(L, xs)))

# %% [markdown]
# ## One output, two consumers: the contributions add up <a id="two-consumers"></a>
#
# L = 3y + y² uses y twice. The tape adds both contributions, 3 + 2y = 4.3863, and calls `grad` once
# with the sum.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
    L = 3.0 * y + y * y
print("dL/dx =", fmt(tape.gradient(L, x)))

# %% [markdown]
# ## What goes wrong when `grad` ignores `dy` <a id="ignoring-dy"></a>
#
# A `grad` that returns only the local derivative drops everything that came after y. With the target
# y itself (`dy = 1`) the mistake is invisible; with L = 3y the answer is three times too small.

# %%
@tf.custom_gradient
def log1pexp_ignores_dy(x):
    e = tf.exp(x)

    def grad(dy):
        return 1 - 1 / (1 + e)  # WRONG: forgets to multiply by dy

    return tf.math.log(1 + e), grad


for name, f in [("multiplies by dy", log1pexp),
                ("ignores dy", log1pexp_ignores_dy)]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = 3.0 * f(x)
    print(f"{name:17} -> dL/dx for L = 3y: {fmt(tape.gradient(L, x))}")
print("expected 3 * sigmoid(0) =", fmt(3 * tf.sigmoid(x)))

# %% [markdown]
# ## A tape you can read <a id="readable-tape"></a>
#
# The whole idea of `tape.gradient` in plain Python, without TensorFlow: a list of records, one per operation
# (its value, its inputs, its `grad`), and a walk from the last record to the first that calls each `grad` with
# the `dy` summed from all consumers. The chapter explains it line by line
# (https://custom-gradients-faq.github.io/custom-gradients-faq/where-dy-comes-from/#readable-tape).

# %%
import math
from collections import namedtuple

# One record per operation: the value it made, its inputs and its grad.
Record = namedtuple("Record", "value inputs grad")
tape = []  # the records, in the order the forward pass made them


def record(value, inputs, grad):
    tape.append(Record(value, inputs, grad))
    return tape[-1]


def constant(value):  # a source: no inputs, no grad
    return record(value, (), None)


def add(a, b):
    return record(a.value + b.value, (a, b), lambda dy: (dy, dy))


def mul(a, b):
    return record(
        a.value * b.value, (a, b), lambda dy: (dy * b.value, dy * a.value)
    )


def custom_gradient(f):  # f(x) returns (value, grad), as for TensorFlow
    def call(x):
        value, grad = f(x.value)  # forward: plain numbers, grad is kept
        return record(value, (x,), lambda dy: (grad(dy),))

    return call


def gradient(target, sources, output_gradient=1.0):
    dys = {id(target): output_gradient}  # dL/dL = 1, unless you choose
    for r in reversed(tape):  # every consumer of a value comes after it
        if id(r) in dys and r.grad is not None:
            # dys[id(r)] is complete: the sum from all of r's consumers
            for x, dx in zip(r.inputs, r.grad(dys[id(r)])):
                dys[id(x)] = dys.get(id(x), 0.0) + dx
    return [dys.get(id(s)) for s in sources]


print("the tape starts empty:", tape)

# %% [markdown]
# Your `log1pexp` on it, with the same `grad(dy)` (only `tf.exp` and `tf.math.log` became `math.exp` and `math.log`), and L = 3y + y² at x = 0:
# one call of `grad`, with dy = 3 + 2y = 4.3863, as on TensorFlow's tape above.

# %%
@custom_gradient
def log1pexp_on_the_readable_tape(x):
    e = math.exp(x)

    def grad(dy):
        print(f"  grad called with dy = {dy:.4f}")
        return dy * (1 - 1 / (1 + e))

    return math.log(1 + e), grad


tape.clear()
x0 = constant(0.0)
y0 = log1pexp_on_the_readable_tape(x0)
L0 = add(mul(constant(3.0), y0), mul(y0, y0))
print(f"dL/dx = {gradient(L0, [x0])[0]:.4f}")

# %% [markdown]
# ## Try it yourself <a id="try-it"></a>
#
# - Change `x` to `tf.constant(2.0)` and predict each `dy` before running the cells again.
# - Chain two functions: `L = log1pexp(log1pexp(x))`. Which `dy` does the inner call receive? (It is the outer
#   call's local derivative.)
# - Wrap a cell's tape in a function decorated with `@tf.function`: the prints in `grad` now run once, while
#   TensorFlow traces the function, and the values stay the same.
