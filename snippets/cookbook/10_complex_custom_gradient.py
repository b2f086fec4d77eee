"""A custom gradient for a complex function in TensorFlow's convention, proven."""

import subprocess
import sys
import tempfile

import keras
import numpy as np
import tensorflow as tf


# --8<-- [start:recipe]
@tf.custom_gradient
def square(z):
    """z * z with its gradient in TensorFlow's convention."""

    def grad(dy):
        # holomorphic f: return dy * conj(f'(z)), not dy * f'(z)
        return dy * tf.math.conj(2.0 * z)

    return z * z, grad


@tf.custom_gradient
def abs_squared(z):
    """z * conj(z), not holomorphic: Wirtinger derivatives
    df/dz = conj(z) and df/dconj(z) = z."""

    def grad(dy):
        # dy * conj(df/dz) + conj(dy) * df/dconj(z)
        return dy * z + tf.math.conj(dy) * z

    return z * tf.math.conj(z), grad


# --8<-- [end:recipe]

# --8<-- [start:proof]
# The proof at z = 1 + 2i, for the real loss L = |square(z)|**2. References in
# float64: dL/dx + i dL/dy by central differences (order 1), and the second
# difference of L along v (order 2: v^T H v, z and v as points of the plane).
Z, V = 1.0 + 2.0j, 0.6 - 0.8j
v = tf.constant(V, tf.complex128)


def loss_np(z):
    return abs(z * z) ** 2


def reference_1(z, h=1e-6):
    dx = (loss_np(z + h) - loss_np(z - h)) / (2 * h)
    dy = (loss_np(z + 1j * h) - loss_np(z - 1j * h)) / (2 * h)
    return dx + 1j * dy


def reference_2(z, h=1e-4):
    return (loss_np(z + h * V) - 2 * loss_np(z) + loss_np(z - h * V)) / h**2


def show(context, order, got, want):
    got, want = np.asarray(got), np.asarray(want)
    verdict = "ok" if np.allclose(got, want, rtol=1e-5, atol=1e-5) else "WRONG"
    print(f"{context:<13} order {order}: {np.round(got, 4)} {verdict}")


def loss(z):
    return tf.abs(square(z)) ** 2


def real_part_along_v(g):
    """Re(g * conj(v)): the derivative of L along v, a real number."""
    return tf.math.real(g * tf.math.conj(tf.cast(v, g.dtype)))


def orders(z):
    with tf.GradientTape() as outer:
        outer.watch(z)
        with tf.GradientTape() as inner:
            inner.watch(z)
            y = loss(z)
        g = inner.gradient(y, z)
        gv = real_part_along_v(g)
    return g, real_part_along_v(outer.gradient(gv, z))


@tf.function
def with_tf_gradients(z):
    g = tf.gradients(loss(z), z)[0]
    return g, real_part_along_v(tf.gradients(real_part_along_v(g), z)[0])


@tf.function(jit_compile=True)
def first_order_jit(z):
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = loss(z)
    return tape.gradient(y, z)


z = tf.constant(Z, tf.complex128)
for context, f in [
    ("eager", orders),
    ("tf.function", tf.function(orders)),
    ("tf.gradients", with_tf_gradients),
]:
    g, second = f(z)
    show(context, 1, g, reference_1(Z))
    show(context, 2, second, reference_2(Z))
g, _ = orders(tf.constant(Z, tf.complex64))
show("complex64", 1, g, reference_1(Z))
show("jit_compile", 1, first_order_jit(z), reference_1(Z))

# abs_squared against the built-in gradient of the same formula, for a
# complex dy (a real loss only ever sends a real-valued one)
dy = tf.constant(0.5 - 1.0j, tf.complex128)
for name, f in [
    ("abs_squared", abs_squared),
    ("built-in", lambda z: z * tf.math.conj(z)),
]:
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = f(z)
    print(
        f"{name:<13} with dy = {dy.numpy()}: {tape.gradient(y, z, output_gradients=dy).numpy()}"
    )


class Square(keras.layers.Layer):
    """Two real weights a, b (started at 1, 2); output |square(a + ib)|**2."""

    def __init__(self):
        super().__init__(dtype="float64")
        init = keras.initializers.Constant([Z.real, Z.imag])
        self.ab = self.add_weight(shape=(2,), initializer=init)

    def call(self, inputs):
        ab = tf.identity(self.ab)  # a tensor, not the Keras weight itself
        return inputs * loss(tf.complex(ab[0], ab[1]))


model = keras.Sequential([keras.Input((1,), dtype="float64"), Square()])
# loss = the model's output; one SGD step of rate 1 moves (a, b) by -gradient
model.compile(keras.optimizers.SGD(1.0), lambda _, y: tf.reduce_mean(y))
model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=1, verbose=0)
a, b = np.array([Z.real, Z.imag]) - model.layers[0].ab.numpy()
show("Keras fit", 1, a + 1j * b, reference_1(Z))

LOAD = """
import sys, tensorflow as tf
model = tf.saved_model.load(sys.argv[1])
z = tf.constant(1.0 + 2.0j, tf.complex128)
with tf.GradientTape() as tape:
    tape.watch(z)
    y = tf.abs(model.square(z)) ** 2
g = tape.gradient(y, z).numpy()
print(g.real, g.imag)
"""
module = tf.Module()
module.square = tf.function(
    square, input_signature=[tf.TensorSpec([], tf.complex128)]
)
with tempfile.TemporaryDirectory() as path:
    tf.saved_model.save(module, path)
    out = subprocess.run(
        [sys.executable, "-c", LOAD, path],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
show("SavedModel", 1, float(out[0]) + 1j * float(out[1]), reference_1(Z))

# forward mode: the derivative along a tangent t is f'(z) t, not conjugated
t = tf.constant(1.0 + 0.0j, tf.complex128)
with tf.autodiff.ForwardAccumulator(z, t) as acc:
    y = square(z)
show("forward mode", 1, acc.jvp(y), 2 * Z * 1.0)
# --8<-- [end:proof]
