"""tf.linalg.det at a singular matrix: the value is fine, the gradient raises."""

import tensorflow as tf

H = 1e-6  # the float64 reference: central differences of the value


def reference(a):
    a = tf.cast(a, tf.float64)
    n = a.shape[-1]
    steps = tf.reshape(H * tf.eye(n * n, dtype=tf.float64), [n, n, n, n])
    diff = tf.linalg.det(a + steps) - tf.linalg.det(a - steps)
    return diff / (2 * H)


def det_grad(a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        d = tf.linalg.det(a)
    return tape.gradient(d, a)


def slogdet_grad(a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        d = tf.linalg.slogdet(a)[1]
    return tape.gradient(d, a)


def error(e):  # its type and the line of the message that names the cause
    lines = str(e).splitlines()
    line = next((s for s in lines if "invertible" in s), lines[0])
    return f"{type(e).__name__}: {line.split('}} ')[-1].split(' [Op')[0]}"


MATRICES = {
    "regular [[2, 1], [1, 3]]": [[2.0, 1.0], [1.0, 3.0]],
    "singular [[1, 2], [2, 4]]": [[1.0, 2.0], [2.0, 4.0]],
    "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]": [[1.0, 2, 3], [4, 5, 6], [7, 8, 9]],
}
for name, values in MATRICES.items():
    a64 = tf.constant(values, tf.float64)
    print(f"{name}: det {tf.linalg.det(a64).numpy() + 0:.2g} (float64)")
    print(f"  reference {(reference(a64).numpy().round(4) + 0).tolist()}")
    for dtype in (tf.float32, tf.float64):
        a = tf.constant(values, dtype)
        for label, f in (
            ("eager", det_grad),
            ("tf.function", tf.function(det_grad)),
        ):
            try:
                shown = (f(a).numpy().round(4) + 0).tolist()
            except tf.errors.InvalidArgumentError as e:
                shown, message = type(e).__name__, error(e)
            print(f"  {dtype.name:7} {label:11}: {shown}")
print(f"each error: {message}")
a = tf.constant(MATRICES["singular [[1, 2], [2, 4]]"], tf.float64)
try:
    slogdet_grad(a)
except tf.errors.InvalidArgumentError as e:
    print(f"slogdet at [[1, 2], [2, 4]], float64: {error(e)}")
