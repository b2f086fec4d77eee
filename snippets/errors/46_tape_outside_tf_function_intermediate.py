"""A tape outside a tf.function: the gradient with respect to an intermediate
is None, because the call is one operation."""

import tensorflow as tf


def two_steps(x):
    h = 2.0 * x  # the intermediate we want dy/dh of
    return h, h**2


def outer_tape(f):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h, y = f(x)
    return tape.gradient(y, h), tape.gradient(y, x)


@tf.function
def tape_inside(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = 2.0 * x
        tape.watch(h)
        y = h**2
    return tape.gradient(y, h)


for label, f in [
    ("eager function, outer tape:", two_steps),
    ("tf.function, outer tape:   ", tf.function(two_steps)),
]:
    dy_dh, dy_dx = outer_tape(f)
    print(f"{label} dy/dh = {dy_dh}, dy/dx = {dy_dx.numpy()}")
print(f"tf.function, tape inside:   dy/dh = {tape_inside(tf.constant(3.0))}")

# The call is one operation with two outputs, h and y: here in the graph of a
# tf.function that calls it
fn = tf.function(two_steps)
caller = tf.function(lambda x: fn(x)).get_concrete_function(tf.constant(3.0))
ops = [(op.type, len(op.outputs)) for op in caller.graph.get_operations()]
print("ops of a graph that calls it (type, outputs):", ops)
