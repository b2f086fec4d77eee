"""Around a matrix function from eigh: what the recipe does not fix (order 2
at a repeated eigenvalue), tf.linalg.sqrtm, Newton-Schulz, a jitter, and the
single tf.where trap."""

import numpy as np
import tensorflow as tf

W = tf.constant(np.linspace(-1, 1, 9).reshape(3, 3))  # the loss: sum(W * F)


def sym(a):
    return (a + tf.transpose(a)) / 2


def spd_function(f, df, double_where=True):  # the recipe, and its trap
    @tf.custom_gradient
    def matrix_function(a):
        lam, v = tf.linalg.eigh(sym(a))

        def grad(dy):
            li, lj = lam[:, None], lam[None, :]
            switch = 1e-5 * tf.maximum(li, lj)
            close = tf.abs(li - lj) <= switch
            gap = tf.where(close, tf.ones_like(li), li - lj)
            gap = gap if double_where else li - lj  # the trap: 0 / 0 taken
            divided = (f(li) - f(lj)) / gap
            g = tf.where(close, df((li + lj) / 2), divided)
            return v @ (g * (tf.transpose(v) @ sym(dy) @ v)) @ tf.transpose(v)

        return v @ tf.linalg.diag(f(lam)) @ tf.transpose(v), grad

    return matrix_function


def gradient(fn, a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        value = tf.reduce_sum(W * fn(a))
    return tape.gradient(value, a)


def hessian_row(fn, a, i, j):  # d/dA of the gradient's entry (i, j)
    with tf.GradientTape() as tape:
        tape.watch(a)
        g = gradient(fn, a)[i, j]
    return tape.gradient(g, a).numpy()


def differences(fn, a, i, j, h=1e-5):  # of the recipe's own gradient
    steps = tf.reshape(tf.eye(9, dtype=tf.float64), [9, 3, 3])
    diffs = [
        gradient(fn, a + h * e)[i, j] - gradient(fn, a - h * e)[i, j]
        for e in steps
    ]
    return np.reshape(diffs, [3, 3]) / (2 * h)


logm_spd = spd_function(tf.math.log, tf.math.reciprocal)
print("recipe, order 2: d/dA of dL/dA_00, row 0")
for values in [(3.0, 2.0, 1.0), (2.0, 2.0, 1.0)]:
    a = tf.constant(np.diag(values))
    row, want = (
        hessian_row(logm_spd, a, 0, 0)[0],
        differences(logm_spd, a, 0, 0)[0],
    )
    print(f"  at diag{values}: {row.round(4)}, reference {want.round(4)}")
trap = spd_function(tf.math.log, tf.math.reciprocal, double_where=False)
a = tf.constant(np.diag([3.0, 2.0, 1.0]))
print("single tf.where at diag(3, 2, 1):")
print(
    f"  order 1 {gradient(trap, a).numpy()[0].round(4)}, order 2 {hessian_row(trap, a, 0, 0)[0]}"
)

a = tf.constant(2 * np.eye(3))
sqrtm_spd = spd_function(tf.sqrt, lambda x: 0.5 / tf.sqrt(x))
print(
    f"sqrtm at 2I, row 0 of the gradient; the recipe: {gradient(sqrtm_spd, a).numpy()[0].round(4)}"
)


def sqrtm_builtin(a):
    return tf.linalg.sqrtm(sym(a))


def sqrtm_newton_schulz(a, steps=20):  # only matmuls: plain autodiff is right
    a = sym(a)
    norm = tf.norm(a)  # the iteration converges for eigenvalues in (0, 1]
    y, z = a / norm, tf.eye(3, dtype=a.dtype)
    for _ in range(steps):
        t = (3 * tf.eye(3, dtype=a.dtype) - z @ y) / 2
        y, z = y @ t, t @ z
    return y * tf.sqrt(norm)


for fn in (sqrtm_builtin, sqrtm_newton_schulz):
    print(f"  {fn.__name__}: {gradient(fn, a).numpy()[0].round(4)}")
    try:
        compiled = tf.function(
            lambda a, fn=fn: gradient(fn, a), jit_compile=True
        )
        print(f"    jit_compile: {compiled(a).numpy()[0].round(4)}")
    except tf.errors.InvalidArgumentError as e:
        print(
            f"    jit_compile: {type(e).__name__}: {str(e).split(' when')[0]}"
        )
for steps in (20, 30):  # the smaller an eigenvalue, the more steps it needs
    values = np.array([1.0, 1e-6, 1e-6])
    y = sqrtm_newton_schulz(tf.constant(np.diag(values)), steps)
    error = np.abs(np.diag(y) / np.sqrt(values) - 1).max()
    print(
        f"  Newton-Schulz at diag(1, 1e-6, 1e-6), {steps} steps: error {error:.1g}"
    )

print("a jitter at 2I: log(A + eps diag(0, 1, 2)) from eigh, built-in gradient")
for eps in [1e-6, 1e-10]:
    jitter = tf.constant(np.diag([0.0, 1.0, 2.0]) * eps)

    def jittered(a, jitter=jitter):
        lam, v = tf.linalg.eigh(sym(a) + jitter)
        return v @ tf.linalg.diag(tf.math.log(lam)) @ tf.transpose(v)

    moved = np.abs(jittered(a) - np.log(2.0) * np.eye(3)).max()
    print(
        f"  eps {eps}: value moves {moved:.2g}, gradient {gradient(jittered, a).numpy()[0].round(4)}"
    )
