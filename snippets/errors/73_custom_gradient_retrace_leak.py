"""Each trace of a tf.function that calls a @tf.custom_gradient function
keeps its graph tensors alive; the same function without it keeps none,
and one tf.function traced once keeps one trace's worth."""

import gc

import tensorflow as tf


@tf.custom_gradient
def square(x):
    return x * x, lambda dy: dy * 2 * x


def plain(x):
    return x * x


def graph_tensors_alive():
    gc.collect()
    return sum(type(o).__name__ == "SymbolicTensor" for o in gc.get_objects())


once = tf.function(square)  # made once, outside the loop
calls = {
    "tf.function(square) per call": lambda x: tf.function(square)(x),
    "tf.function(plain) per call": lambda x: tf.function(plain)(x),
    "one tf.function(square)": once,
}
for name, call in calls.items():
    before = graph_tensors_alive()
    for n in range(1, 31):
        call(tf.constant(float(n)))
    alive = graph_tensors_alive() - before
    print(f"{name:>28}: 30 calls, graph tensors alive: {alive}")
