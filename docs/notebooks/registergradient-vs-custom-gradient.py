# %% [markdown]
# # `tf.RegisterGradient` or `tf.custom_gradient`? A notebook to run <a id="registergradient-vs-custom-gradient"></a>
#
# The hands-on companion of the chapter *`tf.RegisterGradient` vs `tf.custom_gradient`*
# (https://custom-gradients-faq.github.io/custom-gradients-faq/registergradient-vs-custom-gradient/).
# Run the cells from top to bottom; each one prints its result.
#
# One task, solved both ways: give `tf.round` a straight-through gradient (the backward pass treats rounding
# as if it were the identity, so dL/dx = dL/dy). The loss is L = 1·round(x₀) + 2·round(x₁), so the
# straight-through gradient is `[1, 2]`.

# %%
import re

import tensorflow as tf

print("TensorFlow", tf.__version__)
x = tf.constant([0.2, 1.7])
w = tf.constant([1.0, 2.0])
print("x =", x.numpy(), " round(x) =", tf.round(x).numpy())

# %% [markdown]
# ## The built-in gradient of `round` <a id="built-in-gradient"></a>
#
# `round` is flat almost everywhere, and the gradient TensorFlow registers for `Round` returns `None`:
# so does the tape.
# That is why a straight-through estimator needs a custom gradient.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(w * tf.round(x))
print("built-in gradient of round:", tape.gradient(loss, x))

# %% [markdown]
# ## `tf.custom_gradient`: decorate a Python function <a id="custom-gradient"></a>
#
# The forward pass and its gradient live together in one function. It works the same in eager execution and
# inside `tf.function`, with a `GradientTape` or with `tf.gradients`.

# %%
@tf.custom_gradient
def round_ste(x):
    def grad(dy):
        return dy  # straight-through: dL/dx = dL/dy

    return tf.round(x), grad


with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(w * round_ste(x))
print("custom_gradient, eager tape      :", tape.gradient(loss, x).numpy())


@tf.function
def gradient_in_function(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(w * round_ste(x))
    return tape.gradient(loss, x)


print("custom_gradient, tf.function tape:", gradient_in_function(x).numpy())

# %% [markdown]
# ## `tf.RegisterGradient`: a gradient for an op type, chosen by name <a id="register-gradient"></a>
#
# `tf.RegisterGradient("Name")` puts a function into TensorFlow's process-wide gradient registry under a
# **new** name. It changes nothing by itself: a graph must be told to use it for an op type with
# `gradient_override_map({"Round": "Name"})`, and only the graph's backward pass reads that map
# (`tf.gradients`, or a tape outside a `tf.function`: [below](#where-each-applies)).
#
# A name can be registered only once per Python process, so re-running a cell that registers it raises
# `KeyError`. The small `register_once` helper makes this cell safe to re-run.

# %%
def register_once(name, gradient_function):
    """tf.RegisterGradient(name); a second run keeps the first registration."""
    try:
        tf.RegisterGradient(name)(gradient_function)
    except KeyError:
        pass
    return name


def straight_through(op, dy):  # one input (x), so one gradient
    return dy


register_once("NotebookStraightThroughRound", straight_through)

graph = tf.Graph()
with graph.as_default():
    gx = tf.constant([0.2, 1.7])
    gw = tf.constant([1.0, 2.0])
    with graph.gradient_override_map({"Round": "NotebookStraightThroughRound"}):
        gy = tf.round(gx)
    g_loss = tf.reduce_sum(gw * gy)
    g_grad = tf.gradients(g_loss, gx)[0]

print("op type:", gy.op.type)
print("gradient looked up as:", gy.op.get_attr("_gradient_op_type").decode())
with tf.compat.v1.Session(graph=graph) as session:
    print("RegisterGradient, tf.Graph + tf.gradients:", session.run(g_grad))

# %% [markdown]
# ## The same override under an eager tape is ignored <a id="override-ignored-eagerly"></a>
#
# In eager execution there is no graph to attach the override to: the tape looks up the gradient of `Round`
# by its op type, finds the built-in one (which returns `None`) and returns `None`, without a warning. This is
# what people hit when a TF1 recipe (for example guided backpropagation) "does nothing" in TF 2.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    eager_graph = tf.compat.v1.get_default_graph()
    with eager_graph.gradient_override_map({"Round": "NotebookStraightThroughRound"}):
        y = tf.round(x)
    loss = tf.reduce_sum(w * y)
print("RegisterGradient + override map, eager tape:", tape.gradient(loss, x))

# %% [markdown]
# ## Where each one applies <a id="where-each-applies"></a>
#
# The same loss, differentiated in four ways. The chapter explains each row
# (https://custom-gradients-faq.github.io/custom-gradients-faq/registergradient-vs-custom-gradient/#where-override-applies).

# %%
def round_override(x):
    graph = tf.compat.v1.get_default_graph()  # inside tf.function: the function's own graph
    with graph.gradient_override_map({"Round": "NotebookStraightThroughRound"}):
        return tf.round(x)


def eager_tape(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(w * f(x))
    return tape.gradient(loss, x)


contexts = {
    "eager tape": lambda f: eager_tape(f, x),
    "tape outside tf.function": lambda f: eager_tape(tf.function(f), x),
    "tape inside tf.function": lambda f: tf.function(lambda v: eager_tape(f, v))(x),
    "tf.gradients in tf.function": lambda f: tf.function(
        lambda v: tf.gradients(tf.reduce_sum(w * f(v)), v)[0])(x),
}


def show(gradient):
    return "ignored (None)" if gradient is None else f"applied {gradient.numpy()}"


print(f"{'context':29}| {'RegisterGradient':17}| custom_gradient")
for name, run in contexts.items():
    print(f"{name:29}| {show(run(round_override)):17}| {show(run(round_ste))}")

# %% [markdown]
# ## The classic notebook error: registering a name twice <a id="register-twice"></a>
#
# Running a `@tf.RegisterGradient("Name")` cell a second time raises `KeyError`, because the registry keeps
# the first function for the life of the Python process. Restart the kernel, use a new name, or guard the
# registration as `register_once` does above.

# %%
try:
    tf.RegisterGradient("NotebookStraightThroughRound")(straight_through)
except KeyError as error:
    # the part after "(" names a file on this machine: keep the message itself
    message = str(error.args[0]).split("(")[0].strip()
    print("KeyError:", message)

# %% [markdown]
# ## Which one to use <a id="which-one"></a>
#
# - In TensorFlow 2, reach for `tf.custom_gradient`: it is attached to your Python function, works in eager
#   mode, in `tf.function`, with tapes and with `tf.gradients`, and its `grad` sees the forward pass's values
#   by closure.
# - `tf.RegisterGradient` is for an **op type**: a custom C++ op that has no gradient yet, or graph code
#   (`tf.function`, TF1-style graphs) where you want to replace the gradient of every op of one type.
