"""Several inputs and outputs: one dy per output in, one gradient per input out (None = no gradient)."""

import tensorflow as tf


@tf.custom_gradient
def two_outputs(x, w, n):  # u = w * x, v = x ** n; n is a setting, not trained
    u, v = w * x, x**n
    print(f"forward: u = {float(u):.4f}, v = {float(v):.4f}")

    def grad(du, dv):  # one dy per output, in the same order
        print(
            f"  backward: grad gets du = {float(du):.4f}, dv = {float(dv):.4f}"
        )
        dx = du * w + dv * n * x ** (n - 1)
        dw = du * x
        return dx, dw, None  # one gradient per input; None: no gradient for n

    return (u, v), grad


x, w, n = tf.constant(2.0), tf.constant(3.0), tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, w, n])
    u, v = two_outputs(x, w, n)
    L1 = u + 10.0 * v
    L2 = u  # v does not reach this target
for name, L in [("u + 10 * v", L1), ("u", L2)]:
    print(f"tape.gradient({name}, [x, w, n]):")
    grads = tape.gradient(L, [x, w, n])
    print(
        "  result =", [None if g is None else round(float(g), 4) for g in grads]
    )
