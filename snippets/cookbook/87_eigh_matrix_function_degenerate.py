"""logm and sqrtm of a symmetric matrix from tf.linalg.eigh: the gradient is
silently wrong where eigenvalues repeat, with no nan and no error."""

import numpy as np
import tensorflow as tf


def from_eigh(f):  # A -> V f(L) V^T, as readers write it for logm and sqrtm
    def matrix_function(a):
        a = (a + tf.transpose(a)) / 2  # the same symmetric matrix as A
        values, vectors = tf.linalg.eigh(a)
        return vectors @ tf.linalg.diag(f(values)) @ tf.transpose(vectors)

    return matrix_function


def loss(f, a):  # a weighted sum of the entries of f(A)
    w = tf.constant(np.linspace(-1, 1, 9).reshape(3, 3), a.dtype)
    return tf.reduce_sum(w * from_eigh(f)(a))


def gradient(f, a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        value = loss(f, a)
    return tape.gradient(value, a).numpy()


def reference(f, a, h=1e-6):  # central differences in float64, entry by entry
    a, steps = (
        tf.cast(a, tf.float64),
        tf.reshape(tf.eye(9, dtype=tf.float64), [9, 3, 3]),
    )
    diffs = [(loss(f, a + h * e) - loss(f, a - h * e)) / (2 * h) for e in steps]
    return np.reshape(diffs, [3, 3])


q, _ = np.linalg.qr(np.reshape(np.linspace(-1.0, 1.5, 9) ** 3, [3, 3]))
for name, f in [("logm", tf.math.log), ("sqrtm", tf.sqrt)]:
    a = 2 * np.eye(3)
    print(f"{name} at A = 2I: row 0 of the gradient")
    print(f"  reference: {reference(f, a)[0].round(4)}")
    for dtype in (tf.float32, tf.float64):
        g = gradient(f, tf.constant(a, dtype))
        print(f"  {dtype.name:9}: {g[0].round(4)}")


def shown(error, dtype):  # rounding: its digits depend on the CPU and NumPy
    if dtype == tf.float64 and error > 1e-3:
        return f"{error:.2g}"
    bound = next((b for b in (1e-3, 1e-5, 1e-8) if error > b), None)
    return f"over {bound:.0e}" if bound else "under 1e-08"


print("logm at A = Q diag(2 + 2g, 2, 1) Q^T: largest error of the gradient")
print("  (a bound where it is rounding, whose digits depend on the machine)")
for gap in [0.0, 1e-10, 1e-6, 1e-3]:
    a = q @ np.diag([2 + 2 * gap, 2, 1]) @ q.T
    errors = []
    for dtype in (tf.float64, tf.float32):
        error = np.abs(
            gradient(tf.math.log, tf.constant(a, dtype))
            - reference(tf.math.log, tf.constant(a, dtype))
        ).max()
        errors.append(f"{dtype.name} {shown(error, dtype)}")
    print(f"  g = {gap:<6}: {', '.join(errors)}")
