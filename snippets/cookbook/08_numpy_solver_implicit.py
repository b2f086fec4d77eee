"""The gradient of a NumPy solver by implicit differentiation, proven."""

import subprocess
import sys
import tempfile

import keras
import numpy as np
import tensorflow as tf


# --8<-- [start:recipe]
def solve(p):
    """The external solver (NumPy, float64): the root r of r**3 + p*r = 1,
    by Newton's method. Replace it with scipy.optimize.fsolve or your own."""
    r = np.ones_like(p)
    for _ in range(50):
        r = r - (r**3 + p * r - 1) / (3 * r**2 + p)
    return r


def equation(r, p):
    """The same equation in TensorFlow: solve(p) returns r with g(r, p) = 0."""
    return r**3 + p * r - 1


@tf.custom_gradient
def root(p):
    r = tf.numpy_function(solve, [p], p.dtype, stateful=False)
    r.set_shape(p.shape)

    def grad(dr):
        # implicit function theorem: dr/dp = -(dg/dr)^-1 dg/dp at the root
        r_ = root(p)  # not the closure's r: keeps order 2 right
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([r_, p])
            residual = equation(r_, p)
        dg_dr = tape.jacobian(residual, r_)
        w = tf.linalg.solve(tf.transpose(dg_dr), dr[:, None])[:, 0]
        return -tape.gradient(residual, p, output_gradients=w)

    return r, grad


# --8<-- [end:recipe]

# The proof. References in float64: central differences of the solver itself
# (order 1), and its second difference along v (order 2: v^T H v).
P = [1.0, 4.0]
w = tf.constant([1.0, -2.0], tf.float64)  # the loss is sum(w * r)
v = tf.constant([0.5, 1.0], tf.float64)


def loss_np(p):
    return float(np.sum(w.numpy() * solve(np.array(p, dtype=np.float64))))


def reference_1(p, h=1e-6):
    e = h * np.eye(len(p))
    return np.array([(loss_np(p + d) - loss_np(p - d)) / (2 * h) for d in e])


def reference_2(p, h=1e-4):
    p, d = np.array(p), h * v.numpy()
    return (loss_np(p + d) - 2 * loss_np(p) + loss_np(p - d)) / h**2


def show(context, order, got, want):
    got, want = np.asarray(got), np.asarray(want)
    verdict = "ok" if np.allclose(got, want, rtol=1e-6, atol=1e-6) else "WRONG"
    print(f"{context:<13} order {order}: {np.round(got, 6)} {verdict}")


def loss(p):
    return tf.reduce_sum(w * root(p))


def orders(p):
    with tf.GradientTape() as outer:
        outer.watch(p)
        with tf.GradientTape() as inner:
            inner.watch(p)
            y = loss(p)
        g = inner.gradient(y, p)
        gv = tf.reduce_sum(g * v)
    return g, tf.reduce_sum(outer.gradient(gv, p) * v)


@tf.function
def with_tf_gradients(p):
    g = tf.gradients(loss(p), p)[0]
    return g, tf.reduce_sum(tf.gradients(tf.reduce_sum(g * v), p)[0] * v)


def first_order(p):
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = loss(p)
    return tape.gradient(y, p)


p = tf.constant(P, tf.float64)
for context, f in [
    ("eager", orders),
    ("tf.function", tf.function(orders)),
    ("tf.gradients", with_tf_gradients),
]:
    g, second = f(p)
    show(context, 1, g, reference_1(P))
    show(context, 2, second, reference_2(P))
try:
    tf.function(first_order, jit_compile=True)(p)
except tf.errors.InvalidArgumentError as e:
    print(
        f"{'jit_compile':<13} order 1: {type(e).__name__}:",
        e.message.split(" when ")[0],
    )


class Root(keras.layers.Layer):
    """outputs = inputs * sum(w * root(p)), the parameters p started at P."""

    def __init__(self):
        super().__init__(dtype="float64")
        init = keras.initializers.Constant(P)
        self.p = self.add_weight(shape=(len(P),), initializer=init)

    def call(self, inputs):
        # tf.identity: a tensor, not the Keras weight itself, goes in
        return inputs * loss(tf.identity(self.p))


model = keras.Sequential([keras.Input((1,), dtype="float64"), Root()])
# loss = the model's output; one SGD step of rate 1 moves p by -gradient
model.compile(keras.optimizers.SGD(1.0), lambda _, y: tf.reduce_mean(y))
model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=1, verbose=0)
show("Keras fit", 1, P - model.layers[0].p.numpy(), reference_1(P))

LOAD = """
import sys, tensorflow as tf
model = tf.saved_model.load(sys.argv[1])
p = tf.constant([1.0, 4.0], tf.float64)
try:
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = model.root(p)
    print(tape.gradient(y, p).numpy())
except tf.errors.InvalidArgumentError as e:
    line = next(line for line in e.message.splitlines() if "Error:" in line)
    print(line.split(" with key=")[0], "(the NumPy function)")
"""
module = tf.Module()
module.root = tf.function(
    root, input_signature=[tf.TensorSpec([None], tf.float64)]
)
with tempfile.TemporaryDirectory() as path:
    tf.saved_model.save(module, path)
    out = subprocess.run(
        [sys.executable, "-c", LOAD, path],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
print(f"{'SavedModel':<13} order 1: {out}")

try:
    with tf.autodiff.ForwardAccumulator(p, v) as acc:
        y = loss(p)
    show("forward mode", 1, acc.jvp(y), reference_1(P) @ v.numpy())
except ValueError as e:
    print(
        f"{'forward mode':<13} order 1: ValueError:", str(e).split(" with ")[0]
    )
