"""tf.image.resize(method="area"): no gradient at all, in every dtype."""

import keras
import numpy as np
import tensorflow as tf


def area_matrix(n, m):
    """The m x n matrix of the 1-D area resize: output pixel i averages the
    input over [i, i + 1) * n / m, each input pixel weighted by its overlap."""
    s, rows = n / m, np.arange(m)[:, None]
    cols = np.arange(n)[None, :]
    overlap = np.minimum(cols + 1, (rows + 1) * s) - np.maximum(cols, rows * s)
    return np.maximum(overlap, 0) / s


# 4 x 6 -> 3 x 4: the loss sum(w * resize(x)) has the gradient L^T w, with L
# the matrix of the 2-D area resize (float64, from the overlaps)
image = np.linspace(0.1, 0.9, 24).reshape(1, 4, 6, 1)
w = np.linspace(1.0, 2.0, 12).reshape(1, 3, 4, 1)
L = np.kron(area_matrix(4, 3), area_matrix(6, 4))
y = tf.image.resize(image, [3, 4], "area")
same = np.allclose(L @ image.ravel(), y.numpy().ravel(), rtol=0, atol=1e-6)
print(f"L x is resize area (to float32 rounding): {same}")
print(f"reference L^T w: {(L.T @ w.ravel())[:4].round(4)} ...")
for dtype in (tf.float16, tf.bfloat16, tf.float32, tf.float64):
    x = tf.constant(image, dtype)
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, [3, 4], "area")
            loss = tf.reduce_sum(w * tf.cast(y, tf.float64))
        print(tape.gradient(loss, x))
    except LookupError as e:
        print(f"{dtype.name} in, {y.dtype.name} out: {type(e).__name__}: {e}")

layer = keras.layers.Resizing(3, 4, interpolation="area")
x = tf.constant(image, tf.float32)
try:
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x))
    tape.gradient(loss, x)
except LookupError as e:
    print(f"keras Resizing(interpolation='area'): {type(e).__name__}: {e}")


@tf.function(autograph=False)  # (autograph would wrap the error)
def in_graph(x):  # tf.gradients, in a graph, words it differently
    return tf.gradients(tf.image.resize(x, [3, 4], "area"), x)


try:
    in_graph(x)
except LookupError as e:
    print(f"in a graph, tf.gradients: {str(e).split('. In general')[0]}")
    print(
        "  and it suggests:",
        next(s for s in str(e).split(". ") if "stop_" in s),
    )
