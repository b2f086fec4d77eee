"""tf.linalg.lstsq(fast=False) has no gradient; tf.linalg.pinv(a) @ b, the
same least-squares solution, has one."""

import tensorflow as tf

a = tf.Variable([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
b = tf.constant([[1.0], [2.0], [2.0]])
solvers = {
    "lstsq(fast=True)": lambda: tf.linalg.lstsq(a, b, fast=True),
    "lstsq(fast=False)": lambda: tf.linalg.lstsq(a, b, fast=False),
    "pinv(a) @ b": lambda: tf.linalg.pinv(a) @ b,
}
for name, solve in solvers.items():
    with tf.GradientTape() as tape:
        x = solve()
        loss = tf.reduce_sum(x)
    try:
        g = tape.gradient(loss, a)
        print(f"{name:>17}: x {x.numpy().ravel().round(4)},", end=" ")
        print(f"gradient row 1 {g.numpy()[0].round(4)}")
    except ValueError as e:
        print(f"{name:>17}: ValueError: {e}")
