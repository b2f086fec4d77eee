"""The Hessian of a function of several variables: concatenate the gradients
inside the outer tape, then one jacobian."""

import tensorflow as tf

v, w = tf.Variable([0.5]), tf.Variable([2.0])

with tf.GradientTape(persistent=True) as outer:
    with tf.GradientTape() as inner:
        y = v * v * w
    grads = inner.gradient(y, [v, w])  # a list: [dy/dv, dy/dw]
    flat = tf.concat(grads, axis=0)  # inside: recorded
late = tf.concat(grads, axis=0)  # after the block: not recorded

try:
    outer.jacobian(grads, [v, w])
except AttributeError as e:
    print("jacobian of the list: AttributeError:", e)
print(
    "jacobian of a concat made after the block:", outer.jacobian(late, [v, w])
)
rows = outer.jacobian(flat, [v, w])  # one block of columns per variable
print("Hessian:", tf.concat(rows, axis=1).numpy().tolist())
