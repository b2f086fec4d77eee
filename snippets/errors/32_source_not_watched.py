"""tape.gradient is None: a constant not watched, or a path computed before
the tape started."""

import tensorflow as tf

w = tf.Variable(1.0)  # a trainable variable: every tape watches it
x = tf.constant(2.0)  # a constant: no tape watches it unless told to
h = w * 3.0  # computed before the tape starts: not recorded

with tf.GradientTape(persistent=True) as tape:
    z = x * h
print("dz/dx, x not watched:         ", tape.gradient(z, x))
print("dz/dw, h computed before tape:", tape.gradient(z, w))

with tf.GradientTape(persistent=True) as tape:  # the fix
    tape.watch(x)
    h = w * 3.0  # everything from w to z inside the block
    z = x * h
print("dz/dx, x watched:             ", tape.gradient(z, x).numpy())
print("dz/dw, h computed inside:     ", tape.gradient(z, w).numpy())


@tf.function
def in_graph():
    h = w * 3.0  # before the tape, inside the same tf.function
    with tf.GradientTape() as tape:
        z = x * h
    return tape.gradient(z, w), tf.gradients(x * h, w)[0]


on_tape, graph = in_graph()
print("tf.function: tape", on_tape, "| tf.gradients", graph.numpy())
