"""For a vector output, grad returns dy @ J (a vector-Jacobian product); compare with tape.jacobian."""

import tensorflow as tf

W = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])  # shape (3, 2)


@tf.custom_gradient
def project(x):  # x has shape (3,), y = x @ W has shape (2,)
    def grad(dy):  # dy has the shape of y: (2,)
        return tf.linalg.matvec(W, dy)  # W @ dy has the shape of x: (3,)

    return tf.linalg.matvec(W, x, transpose_a=True), grad


x = tf.constant([1.0, 0.0, -1.0])
dy = tf.constant([1.0, 10.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = project(x)
    y_plain = tf.linalg.matvec(W, x, transpose_a=True)  # no custom gradient
print("y =", y.numpy().round(4))
vjp = tape.gradient(y, x, output_gradients=dy)  # calls grad(dy) once
print("grad(dy) = W @ dy =", vjp.numpy().round(4))
J = tape.jacobian(y_plain, x)  # shape (2, 3): J[i, j] = d y_i / d x_j
print("J from tape.jacobian:")
print(J.numpy().round(4))
print("dy @ J =", tf.linalg.matvec(J, dy, transpose_a=True).numpy().round(4))
print(
    "J of the custom function equals J:",
    bool(tf.reduce_all(tape.jacobian(y, x) == J)),
)
