"""A custom gradient that reads variables: grad(dy, variables) returns two things."""

import tensorflow as tf

w = tf.Variable(3.0, name="w")
b = tf.Variable(1.0, name="b")


@tf.custom_gradient
def affine(x):
    def grad(dy, variables=None):
        # `variables` holds every variable the forward pass read, in no promised
        # order:
        # look each one up instead of relying on its position.
        print("variables:", sorted(v.name for v in variables))
        by_variable = {w.ref(): dy * x, b.ref(): dy}
        # (input, [variables])
        return dy * w, [by_variable[v.ref()] for v in variables]

    return w * x + b, grad


x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = affine(x)  # y = 3 * 2 + 1 = 7
dx, dw, db = tape.gradient(y, [x, w, b])
print(
    f"y = {y.numpy():.1f}; dy/dx = {dx.numpy():.1f} (w), "
    f"dy/dw = {dw.numpy():.1f} (x), dy/db = {db.numpy():.1f}"
)
