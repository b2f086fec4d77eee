"""Straight-through estimator for tf.sign (BinaryNet's rule), proven."""

import subprocess
import sys
import tempfile

import keras
import numpy as np
import tensorflow as tf


# --8<-- [start:recipe]
@tf.custom_gradient
def binarize(x):
    """tf.sign(x) forwards; backwards dy where |x| <= 1, else 0."""

    def grad(dy):
        # sign's derivative is 0 almost everywhere: use the derivative of
        # tf.clip_by_value(x, -1, 1) instead, 1 on [-1, 1] and 0 outside
        return dy * tf.cast(tf.abs(x) <= 1.0, dy.dtype)

    return tf.sign(x), grad


# --8<-- [end:recipe]

# The proof, against the intended rule: dy * 1{|x| <= 1}, with dy = 3.
VALUES = [-2.0, -0.5, 0.0, 0.3, 1.5]
RULE = 3.0 * (np.abs(VALUES) <= 1.0)
x = tf.constant(VALUES)


def show(context, order, got, want):
    if got is None:
        print(f"{context:<13} order {order}: None")
        return
    got = np.asarray(got)
    verdict = "ok" if np.allclose(got, want) else "WRONG"
    print(f"{context:<13} order {order}: {np.round(got, 4)} {verdict}")


def loss(x):
    return tf.reduce_sum(3.0 * binarize(x))  # dy = 3 for every element


def orders(x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = loss(x)
        g = inner.gradient(y, x)
    return g, outer.gradient(g, x)


@tf.function
def with_tf_gradients(x):
    g = tf.gradients(loss(x), x)[0]
    return g, tf.gradients(g, x)[0]


@tf.function(jit_compile=True)
def first_order_jit(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    return tape.gradient(y, x)


print("value:", binarize(x).numpy())
for context, f in [
    ("eager", orders),
    ("tf.function", tf.function(orders)),
    ("tf.gradients", with_tf_gradients),
]:
    g, second = f(x)
    show(context, 1, g, RULE)
    show(context, 2, second, 0.0)
show("jit_compile", 1, first_order_jit(x), RULE)


class Binary(keras.layers.Layer):
    """outputs = inputs * binarize(w), w started at VALUES."""

    def build(self, input_shape):
        init = keras.initializers.Constant(VALUES)
        self.w = self.add_weight(shape=(len(VALUES),), initializer=init)

    def call(self, inputs):
        # tf.identity: a tensor, not the Keras weight itself, goes in
        return inputs * binarize(tf.identity(self.w))


model = keras.Sequential([keras.Input((1,)), Binary()])
# loss = 3 * sum of the outputs; one SGD step of rate 1 moves w by -gradient
model.compile(keras.optimizers.SGD(1.0), lambda _, y: tf.reduce_sum(3.0 * y))
model.fit(np.ones((1, 1)), np.zeros((1, 5)), epochs=1, verbose=0)
show("Keras fit", 1, VALUES - model.layers[0].w.numpy(), RULE)

LOAD = """
import sys, tensorflow as tf
model = tf.saved_model.load(sys.argv[1])
x = tf.constant([-2.0, -0.5, 0.0, 0.3, 1.5])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(3.0 * model.binarize(x))
print(*tape.gradient(y, x).numpy())
"""
module = tf.Module()
module.binarize = tf.function(
    binarize, input_signature=[tf.TensorSpec([None], tf.float32)]
)
with tempfile.TemporaryDirectory() as path:
    tf.saved_model.save(module, path)
    out = subprocess.run(
        [sys.executable, "-c", LOAD, path],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
show("SavedModel", 1, [float(t) for t in out.split()], RULE)

with tf.autodiff.ForwardAccumulator(x, 3.0 * tf.ones_like(x)) as acc:
    y = binarize(x)
show("forward mode", 1, acc.jvp(y), RULE)
