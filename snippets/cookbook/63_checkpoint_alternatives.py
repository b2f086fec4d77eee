"""Simpler ways to save a block's memory, and where each stops."""

import gc
import weakref

import numpy as np
import tensorflow as tf

kept = []  # a weak reference to each intermediate of the block
weights = [tf.Variable(0.9 + 0.1 * i, dtype=tf.float64) for i in range(7)]


def block(h, use_weights=True):
    for w in weights:
        h = tf.sin(w * h if use_weights else h)
        kept.append(weakref.ref(h))
    return tf.sin(h)


def stop_gradient_forward(block):
    """The forward on tf.stop_gradient(x), grad recomputing on its own tape."""

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=()):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = block(x)
            dx, *dw = tape.gradient(y, [x, *variables], output_gradients=dy)
            return (dx, dw) if variables else dx

        return block(tf.stop_gradient(x)), grad

    return f


def count(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        kept.clear()
        y = f(x)
        gc.collect()
        alive = sum(ref() is not None for ref in kept)
    return alive, tape.gradient(y, x)


x = tf.constant([0.5, -1.0, 2.0], tf.float64)
print("tf.stop_gradient in the forward:")
for name, b in [
    ("a block without weights", lambda h: block(h, use_weights=False)),
    ("a block with 7 weights", block),
]:
    alive, _ = count(stop_gradient_forward(b), x)
    print(f"  {name}: intermediates kept {alive} of 7")

f = stop_gradient_forward(block)
with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
    y = f(x)
print(f"  forward mode, eager: {acc.jvp(y, unconnected_gradients='zero')}")


def weight_gradient(rows):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(block(rows))
    return np.array([float(g) for g in tape.gradient(loss, weights)])


batch = tf.constant([[0.5, -1.0, 2.0], [0.3, 1.2, -0.7]], tf.float64)
whole = weight_gradient(batch)  # keeps the intermediates of both rows
by_row = sum(weight_gradient(row[None]) for row in batch)  # of one at a time
print("d loss / d weights, of the batch and summed over its rows one by one:")
print(f"  whole batch: {np.round(whole, 6).tolist()}")
print(f"  row by row:  {np.round(by_row, 6).tolist()}")
