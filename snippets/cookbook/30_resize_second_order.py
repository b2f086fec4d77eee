"""A gradient penalty through tf.image.resize: no second derivative."""

import re

import numpy as np
import tensorflow as tf

image = tf.constant(np.linspace(0.1, 0.9, 9).reshape(1, 3, 3, 1), tf.float32)


def penalty_gradient(resize):
    """d/dx of |dD/dx|^2 for the critic D(x) = sum(sin(resize(x)))."""
    with tf.GradientTape() as outer:
        outer.watch(image)
        with tf.GradientTape() as inner:
            inner.watch(image)
            critic = tf.reduce_sum(tf.sin(resize(image)))
        penalty = tf.reduce_sum(inner.gradient(critic, image) ** 2)
    return outer.gradient(penalty, image)


def reference(method):
    """The same, with L, the matrix of the linear map resize: its columns are
    the resized basis images (a difference quotient with step 1, exact for L)."""
    basis = tf.reshape(tf.eye(9), [9, 3, 3, 1])
    L = tf.reshape(tf.image.resize(basis, [5, 5], method), [9, 25]).numpy().T
    x = image.numpy().reshape(9).astype(np.float64)
    y = L @ x  # resize(x), flattened; dD/dx = L^T cos(y)
    return 2 * L.T @ (-np.sin(y) * (L @ (L.T @ np.cos(y))))


for method in ("bilinear", "nearest", "bicubic", "lanczos3"):
    print(f"{method}: reference {reference(method)[:3].round(4)} ...")
    try:
        got = penalty_gradient(
            lambda x, m=method: tf.image.resize(x, [5, 5], m)
        )
        print(f"  second-order gradient: {got}")
    except LookupError as e:
        print(f"  {type(e).__name__}: {e}")

# bilinear with antialias=True raises, like lanczos3
try:
    penalty_gradient(lambda x: tf.image.resize(x, [5, 5], antialias=True))
except LookupError as e:
    print(f"bilinear, antialias=True: {type(e).__name__}: {e}")

# The first order fails for lanczos3 in float64, for nearest under XLA and in
# forward mode
try:
    with tf.GradientTape() as tape:
        x = tf.cast(image, tf.float64)
        tape.watch(x)
        y = tf.image.resize(x, [5, 5], "lanczos3")
    tape.gradient(y, x)
except tf.errors.InvalidArgumentError as e:
    print(f"lanczos3, float64, first order: {e.message.splitlines()[0][:60]}")


@tf.function(jit_compile=True)
def first_order(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sin(tf.image.resize(x, [5, 5], "nearest")))
    return tape.gradient(y, x)


try:
    first_order(image)
except tf.errors.InvalidArgumentError as e:
    print(
        "nearest, jit_compile:",
        re.search(r"No registered '\w+' OpKernel", str(e))[0],
    )
try:
    with tf.autodiff.ForwardAccumulator(image, tf.ones_like(image)) as acc:
        y = tf.image.resize(image, [5, 5], "nearest")
    acc.jvp(y)
except LookupError as e:
    print(f"nearest, forward mode: {type(e).__name__}: {e}")
