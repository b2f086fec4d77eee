# %% [markdown]
# # Second-order derivatives with `tf.custom_gradient`: a notebook to run <a id="second-order"></a>
#
# The hands-on companion of the chapter *Second-order derivatives with `tf.custom_gradient`*
# (https://custom-gradients-faq.github.io/custom-gradients-faq/second-order/).
# Run the cells from top to bottom; each one prints its result next to the closed form.
#
# The running example is softplus, y = log(1 + eˣ), whose derivatives are easy to write down:
# y′ = σ(x) and y″ = σ(x)·(1 − σ(x)). At x = 0 they are 0.5 and 0.25.

# %% [markdown]
# ## Two nested tapes give a second derivative <a id="nested-tapes"></a>
#
# The inner tape differentiates y; the outer tape records that computation too, so it can differentiate the
# first derivative once more.

# %%
import tensorflow as tf


def second_derivative(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)  # recorded by the outer tape
    return outer.gradient(dy_dx, x)


def show(label, values):
    if values is None:
        print(f"{label:<36}None")
    else:
        print(f"{label:<36}" + "".join(f"{v:9.4f}" for v in values.numpy()))


x = tf.constant([-2.0, 0.0, 3.0])
s = tf.sigmoid(x)
show("x", x)
show("closed form sigmoid*(1-sigmoid)", s * (1 - s))
show("nested tapes on tf.math.softplus", second_derivative(tf.math.softplus, x))

# %% [markdown]
# ## A custom first derivative made of TF ops: nothing more to do <a id="no-custom-second-order"></a>
#
# The API page's `log1pexp` writes its `grad` with ordinary TensorFlow ops on `e = exp(x)`. The outer tape
# records those ops like any others, so the second derivative comes for free.

# %%
@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))  # TF ops: the outer tape records them

    return tf.math.log(1 + e), grad


show("log1pexp, nested tapes", second_derivative(log1pexp, x))

# %% [markdown]
# ## When the first derivative is opaque, the second one is lost <a id="opaque-first-derivative"></a>
#
# The docstring's `fused_op` stands for one kernel that returns y and its derivative at once; TensorFlow cannot
# look inside it. We imitate it with `tf.stop_gradient`. Now the first derivative is a constant to the tape, and
# the second derivative comes back as `None`: this is the case where you write the second order yourself.

# %%
def fused_op(x):  # ONE opaque kernel: softplus(x) and sigmoid(x)
    y, x_grad = tf.math.softplus(x), tf.math.sigmoid(x)
    return tf.stop_gradient(y), tf.stop_gradient(x_grad)


@tf.custom_gradient
def softplus_first_order_only(x):
    y, x_grad = fused_op(x)

    def grad(dy):
        return dy * x_grad  # right first derivative, but x_grad is opaque

    return y, grad


show("first order only: 2nd derivative", second_derivative(softplus_first_order_only, x))

# %% [markdown]
# ## The docstring's pattern, version 1: one input, one return value <a id="version-1"></a>
#
# `first_order_gradient(dy)` returns `dy * first_order_custom(x)`. `first_order_custom` is itself a
# custom-gradient function: its forward value is the first derivative `x_grad`, and its own `grad` gives the
# derivative of `x_grad`, that is the second derivative. It has one input (`unused_x`: the value is not used,
# only the connection to x matters), so its `grad` returns one value.

# %%
@tf.custom_gradient
def softplus_v1(x):
    y, x_grad = fused_op(x)  # x_grad = sigmoid(x) = softplus'(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x):
            def second_order(ddy):
                return ddy * x_grad * (1 - x_grad)  # ddy * softplus''(x)

            return x_grad, second_order

        return dy * first_order_custom(x)

    return y, first_order_gradient


show("version 1, eager", second_derivative(softplus_v1, x))
show("version 1, tf.function", tf.function(lambda v: second_derivative(softplus_v1, v))(x))

# %% [markdown]
# ## Version 2: `dy` as an input, two return values <a id="version-2"></a>
#
# This is the shape of the docstring's `second_order_and_transpose`. When `dy` is also an input of the inner
# function, its `grad` must return two values: the derivative with respect to x (the second-order term) and the
# derivative with respect to `dy` (the "transpose" part, here σ(x)). The second value is what eager forward
# mode needs (see the chapter's forward-mode section) and what a gradient with respect to `dy` itself returns;
# the outer tape below asks for both.

# %%
@tf.custom_gradient
def softplus_v2(x):
    y, x_grad = fused_op(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x, dy):
            def second_order_and_transpose(ddy):
                return ddy * dy * x_grad * (1 - x_grad), ddy * x_grad  # for x, for dy

            return dy * x_grad, second_order_and_transpose

        return first_order_custom(x, dy)

    return y, first_order_gradient


dy = tf.ones_like(x)  # the dy that tape.gradient would start with; watched too
with tf.GradientTape(persistent=True) as outer:
    outer.watch([x, dy])
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = softplus_v2(x)
    dy_dx = inner.gradient(y, x, output_gradients=dy)
show("version 2: second derivative", outer.gradient(dy_dx, x))
show("version 2: gradient w.r.t. dy", outer.gradient(dy_dx, dy))
show("closed form sigmoid", s)

# %% [markdown]
# ## A trap: decorating `grad` itself <a id="decorating-grad"></a>
#
# It is tempting to put `@tf.custom_gradient` on `grad` and call its inner function the second derivative
# (tensorflow/tensorflow#34503). But `grad`'s only input is `dy`, so `grad_grad` is the gradient with respect
# to `dy`, not to x. In eager mode TensorFlow never calls it (the 100 marker never shows); in `tf.function`
# it is called and the second derivative becomes `None`.

# %%
calls = []


@tf.custom_gradient
def sin(x):
    @tf.custom_gradient
    def grad(dy):
        def grad_grad(ddy):
            calls.append("grad_grad")
            return ddy * 100.0  # a marker

        return dy * tf.cos(x), grad_grad

    return tf.sin(x), grad


def first_and_second(v):
    with tf.GradientTape() as outer:
        outer.watch(v)
        with tf.GradientTape() as inner:
            inner.watch(v)
            y = sin(v)
        d1 = inner.gradient(y, v)
    return d1, outer.gradient(d1, v)


v = tf.constant(1.0)  # cos(1) = 0.5403, -sin(1) = -0.8415
modes = [("eager", first_and_second), ("tf.function", tf.function(first_and_second))]
for mode, run in modes:
    calls.clear()
    d1, d2 = run(v)
    d2 = "None" if d2 is None else f"{d2.numpy():.4f}"
    print(f"{mode:<12} first: {d1.numpy():.4f}  second: {d2:<8} "
          f"grad_grad called {len(calls)} time(s)")

# %% [markdown]
# ## Try it yourself <a id="try-it"></a>
#
# - In version 1, replace `x_grad * (1 - x_grad)` by a wrong formula (say `x_grad`) and compare with the closed
#   form: the first derivative stays right, only the second one moves.
# - Check any version with `tf.test.compute_gradient` in `float64`, as the chapter *Checking a custom gradient*
#   shows.
