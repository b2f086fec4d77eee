"""The Hessian in TensorFlow 2: tape.jacobian of a gradient taken inside the
outer tape; batch_jacobian for one Hessian per example; tf.hessians only in
graph mode: a tf.function or a TensorFlow 1-style tf.Graph."""

import tensorflow as tf


def f(x):
    return x[0] ** 2 * x[1] + x[1] ** 3  # Hessian at (1, 2): [[4, 2], [2, 12]]


def hessian(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)  # inside the outer block: recorded
    return outer.jacobian(g, x)


x = tf.constant([1.0, 2.0])
print("nested tapes, eager:      ", hessian(f, x).numpy().tolist())
print("nested tapes, tf.function:", tf.function(hessian)(f, x).numpy().tolist())
in_graph = tf.function(lambda x: tf.hessians(f(x), x)[0])
print("tf.hessians, tf.function: ", in_graph(x).numpy().tolist())
graph = tf.Graph()
with graph.as_default():  # TensorFlow 1 style: build a graph, run a session
    x1 = tf.constant([1.0, 2.0])
    h = tf.hessians(f(x1), x1)[0]
h = tf.compat.v1.Session(graph=graph).run(h)
print("tf.hessians, tf.Graph:    ", h.tolist())
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
try:
    tape.hessians(y, x)  # what people try first: no such method
except AttributeError as e:
    print("tape.hessians: AttributeError:", e)

batch = tf.constant([[1.0, 2.0], [3.0, 4.0]])  # two examples
with tf.GradientTape() as outer:
    outer.watch(batch)
    with tf.GradientTape() as inner:
        inner.watch(batch)
        y = tf.reduce_sum(batch**3, axis=1)  # one value per example
    g = inner.gradient(y, batch)
print("one per example:", outer.batch_jacobian(g, batch).numpy().tolist())
