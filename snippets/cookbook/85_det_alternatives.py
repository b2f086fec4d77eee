"""Instead of the cofactor recipe: an SVD gradient, a formula, a jitter."""

import tensorflow as tf


@tf.custom_gradient
def det_svd(a):
    """The adjugate from the SVD, with no inverse: right at order 1 only."""

    def grad(dy):
        s, u, v = tf.linalg.svd(a)
        n = s.shape[-1]  # the product of the other singular values, per i
        others = tf.stack(
            [
                tf.reduce_prod(tf.concat([s[:i], s[i + 1 :]], 0))
                for i in range(n)
            ]
        )
        sign = tf.linalg.det(u) * tf.linalg.det(v)
        return dy * sign * tf.matmul(u * others, v, adjoint_b=True)

    return tf.linalg.det(a), grad


def det3(a):  # a 3 x 3 determinant written out: products and sums only
    return (
        a[0, 0] * (a[1, 1] * a[2, 2] - a[1, 2] * a[2, 1])
        - a[0, 1] * (a[1, 0] * a[2, 2] - a[1, 2] * a[2, 0])
        + a[0, 2] * (a[1, 0] * a[2, 1] - a[1, 1] * a[2, 0])
    )


def jitter(a, eps=1e-6):
    return tf.linalg.det(a + eps * tf.eye(3, dtype=a.dtype))


def shown(x):  # rounded, with -0.0 printed as 0.0
    return f"{round(float(x), 4) + 0.0:.4f}"


def along(f, a, v):
    """The first and second derivative of f(a + t v) at t = 0 (nested tapes)."""
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = f(a)
        first = tf.reduce_sum(inner.gradient(y, a) * v)
    second = tf.reduce_sum(outer.gradient(first, a) * v)
    return f"first {shown(first)}, second {shown(second)}"


a = tf.constant([[1.0, 1, 2], [2, 2, 4], [3, 3, 6]], tf.float64)  # rank 1
v = tf.constant([[1.0, 0, 1], [0, 2, 0], [1, 1, 1]], tf.float64)
h, det = 1e-3, tf.linalg.det  # the reference: differences of the value
first = (det(a + h * v) - det(a - h * v)) / (2 * h)
second = (det(a + h * v) - 2 * det(a) + det(a - h * v)) / h**2
print(
    f"rank-1 a, along v: reference first {shown(first)}, second {shown(second)}"
)
for f in (det_svd, det3, jitter):
    print(f"  {f.__name__:>7}: {along(f, a, v)}")
print(f"  jitter value: {jitter(a).numpy():.1e}, not 0")


@tf.function(jit_compile=True)
def det3_gradient(a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = det3(a)
    return tape.gradient(y, a)


b = tf.constant([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]], tf.float64)
print(f"det3 gradient, jit_compile: {(det3_gradient(b).numpy() + 0).tolist()}")
try:
    tf.function(tf.linalg.det, jit_compile=True)(a)
except tf.errors.InvalidArgumentError as e:
    line = str(e).splitlines()[0]
    print(f"tf.linalg.det with jit_compile: {type(e).__name__}: {line[:40]}")
