"""A dict argument: grad's gradients are matched in sorted-key order."""

import tensorflow as tf


@tf.custom_gradient
def written_order(d):  # y = 10 * a + b, so dy/da = 10 and dy/db = 1
    def grad(dy):
        return (
            dy * 1.0,
            dy * 10.0,
        )  # BUG: (dy/db, dy/da), as the dict is written

    return d["b"] + 10.0 * d["a"], grad


@tf.custom_gradient
def same_structure(d):
    def grad(dy):
        return {"b": dy * 1.0, "a": dy * 10.0}  # the fix: a dict, like d

    return d["b"] + 10.0 * d["a"], grad


def gradients(f, a, b):
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = f({"b": b, "a": a})  # the dict written b first
    return tape.gradient(y, [a, b])


def in_tf_function(f, a, b):  # f reached through a closure, not an argument
    return tf.function(lambda: gradients(f, a, b))()


a, b = tf.constant(1.0), tf.constant(2.0)
print("the order of tf.nest.flatten({'b': ..., 'a': ...}):", end=" ")
print(tf.nest.flatten({"b": "b", "a": "a"}))
for f in [written_order, same_structure]:
    for mode, run in [
        ("eager mode: ", gradients),
        ("tf.function:", in_tf_function),
    ]:
        da, db = run(f, a, b)
        print(f"{f.__name__}, {mode} dy/da = {float(da)}, dy/db = {float(db)}")
