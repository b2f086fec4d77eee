"""A reduce_std whose gradient is 0 (not nan) at a constant input, proven."""

import subprocess
import sys
import tempfile

import keras
import numpy as np
import tensorflow as tf


# --8<-- [start:recipe]
@tf.custom_gradient
def safe_std(x):
    """tf.math.reduce_std(x) over all entries; gradient 0 where std is 0."""

    def grad(dy):
        n = tf.cast(tf.size(x), x.dtype)
        std = safe_std(x)  # from x again, not the closure: order 2 stays right
        positive = std > 0
        safe = tf.where(positive, std, tf.ones_like(std))  # no 0 / 0
        d = (x - tf.reduce_mean(x)) / (n * safe)
        return dy * tf.where(positive, d, tf.zeros_like(d))

    return tf.math.reduce_std(x), grad


# --8<-- [end:recipe]

# The proof. References in float64: central differences of np.std, and the
# second difference along v for order 2 (v^T H v), checked at a smooth point.
SMOOTH, CONSTANT = [1.0, 2.0, 4.0], [3.0, 3.0, 3.0]
v = tf.constant([1.0, -2.0, 0.5], tf.float64)


def reference_1(x, h=1e-6):
    e = h * np.eye(len(x))
    return np.array([(np.std(x + d) - np.std(x - d)) / (2 * h) for d in e])


def reference_2(x, h=1e-4):
    x, d = np.array(x), h * v.numpy()
    return (np.std(x + d) - 2 * np.std(x) + np.std(x - d)) / h**2


def show(context, order, values, got, want):
    got, want = np.asarray(got), np.asarray(want)
    verdict = "ok" if np.allclose(got, want, rtol=1e-6, atol=1e-6) else "WRONG"
    print(
        f"{context:<13} order {order}  x = {values}: {np.round(got, 4)} {verdict}"
    )


def orders(x):
    """Order 1 (the gradient) and order 2 (v^T H v) with nested tapes."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = safe_std(x)
        g = inner.gradient(y, x)
        gv = tf.reduce_sum(g * v)
    return g, tf.reduce_sum(outer.gradient(gv, x) * v)


@tf.function
def with_tf_gradients(x):
    g = tf.gradients(safe_std(x), x)[0]
    return g, tf.reduce_sum(tf.gradients(tf.reduce_sum(g * v), x)[0] * v)


@tf.function(jit_compile=True)
def first_order_jit(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = safe_std(x)
    return tape.gradient(y, x)


for context, f in [
    ("eager", orders),
    ("tf.function", tf.function(orders)),
    ("tf.gradients", with_tf_gradients),
]:
    for values in (SMOOTH, CONSTANT):
        g, second = f(tf.constant(values, tf.float64))
        show(context, 1, values, g, reference_1(values))
    g, second = f(tf.constant(SMOOTH, tf.float64))
    show(context, 2, SMOOTH, second, reference_2(SMOOTH))
for values in (SMOOTH, CONSTANT):
    x = tf.constant(values, tf.float64)
    show("jit_compile", 1, values, first_order_jit(x), reference_1(values))


class Std(keras.layers.Layer):
    """A layer whose output is safe_std of its weight w (started at x)."""

    def __init__(self, x):
        super().__init__(dtype="float64")
        init = keras.initializers.Constant(x)
        self.w = self.add_weight(shape=(len(x),), initializer=init)

    def call(self, inputs):
        # tf.identity: a tensor, not the Keras weight itself, goes in
        return inputs * safe_std(tf.identity(self.w))


for values in (SMOOTH, CONSTANT):
    model = keras.Sequential([keras.Input((1,), dtype="float64"), Std(values)])
    # loss = the model's output; one SGD step of rate 1 moves w by -gradient
    model.compile(keras.optimizers.SGD(1.0), lambda _, y: tf.reduce_mean(y))
    model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=1, verbose=0)
    step = np.array(values) - model.layers[0].w.numpy()
    show("Keras fit", 1, values, step, reference_1(values))

LOAD = """
import sys, tensorflow as tf
model = tf.saved_model.load(sys.argv[1])
for values in ([1.0, 2.0, 4.0], [3.0, 3.0, 3.0]):
    x = tf.constant(values, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model.std(x)
    print(*tape.gradient(y, x).numpy())
"""
module = tf.Module()
module.std = tf.function(
    safe_std, input_signature=[tf.TensorSpec([None], tf.float64)]
)
with tempfile.TemporaryDirectory() as path:
    tf.saved_model.save(module, path)
    out = subprocess.run(
        [sys.executable, "-c", LOAD, path],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
for values, line in zip((SMOOTH, CONSTANT), out):
    gradient = [float(t) for t in line.split()]
    show("SavedModel", 1, values, gradient, reference_1(values))

for values in (SMOOTH, CONSTANT):
    x = tf.constant(values, tf.float64)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = safe_std(x)
    show("forward mode", 1, values, acc.jvp(y), reference_1(values) @ v.numpy())
