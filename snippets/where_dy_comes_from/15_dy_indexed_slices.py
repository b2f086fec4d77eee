"""After tf.gather, dy may arrive as tf.IndexedSlices; convert it to be safe."""

import tensorflow as tf

kinds = []  # what each call of grad received


@tf.custom_gradient
def double(x):
    def grad(dy):
        sparse = isinstance(dy, tf.IndexedSlices)
        kinds.append("tf.IndexedSlices" if sparse else "a dense tensor")
        dense = tf.convert_to_tensor(dy)  # the dense dy, shaped like y
        return 2.0 * dense

    return 2.0 * x, grad


double_in_tf_function = tf.function(double)
x = tf.constant([1.0, 2.0, 3.0])


def gather_and_differentiate(f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = tf.reduce_sum(tf.gather(f(x), [0, 2]))  # L = y[0] + y[2]
    return tape.gradient(L, x)


contexts = {
    "eager": lambda: gather_and_differentiate(double),
    "all in one tf.function": tf.function(
        lambda: gather_and_differentiate(double)
    ),
    "double in a tf.function of its own": lambda: gather_and_differentiate(
        double_in_tf_function
    ),
    "the same, in an outer tf.function": tf.function(
        lambda: gather_and_differentiate(double_in_tf_function)
    ),
}
for name, run in contexts.items():
    gradient = run().numpy()
    print(f"{name:>34}: dy is {kinds.pop()}, dL/dx = {gradient}")
