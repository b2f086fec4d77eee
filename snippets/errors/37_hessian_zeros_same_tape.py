"""batch_jacobian twice on one tape, after its block: a Hessian of zeros
(tape.jacobian gives None). A tape inside a tape gives the Hessian."""

import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])  # two examples, two features

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.reduce_sum(x**3, axis=1, keepdims=True)
g = tape.batch_jacobian(y, x)  # after the block: not recorded
print(
    "one tape, batch_jacobian twice:",
    tape.batch_jacobian(g, x).numpy().tolist(),
)
print("one tape, jacobian of it:      ", tape.jacobian(g, x))

with tf.GradientTape() as outer:  # the fix: a tape inside a tape
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.reduce_sum(x**3, axis=1)
    g = inner.gradient(y, x)  # inside the outer block: recorded
h = outer.batch_jacobian(g, x)  # one Hessian per example: diag(6 x)
print("tape in a tape, batch_jacobian:", h.numpy().tolist())
