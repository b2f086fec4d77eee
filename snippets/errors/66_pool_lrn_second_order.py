"""Second derivatives through pooling and LRN: tf.nn.max_pool2d works,
max_pool_with_argmax and tf.nn.lrn raise LookupError; LRN written with
plain ops gives the same values and a second derivative."""

import tensorflow as tf

x = tf.random.stateless_normal([1, 4, 4, 3], seed=[1, 2])


def second_order(f):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x) ** 2)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)


def lrn(x, r=1):  # tf.nn.lrn(x, r) with its defaults bias=1, alpha=1, beta=0.5
    squares = tf.pad(x**2, [[0, 0], [0, 0], [0, 0], [r, r]])
    window = sum(squares[..., i : i + x.shape[-1]] for i in range(2 * r + 1))
    return x / tf.sqrt(1.0 + window)


layers = {
    "tf.nn.max_pool2d": lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"),
    "max_pool_with_argmax": lambda x: tf.nn.max_pool_with_argmax(
        x, 2, 2, "VALID"
    )[0],
    "tf.nn.lrn": lambda x: tf.nn.lrn(x, depth_radius=1),
    "lrn from plain ops": lrn,
}
for name, f in layers.items():
    try:
        h = second_order(f)
        print(
            f"{name:>20}: second derivative, sum {float(tf.reduce_sum(h)):.2f}"
        )
    except LookupError as e:
        print(f"{name:>20}: LookupError: {e}")
difference = tf.reduce_max(tf.abs(lrn(x) - tf.nn.lrn(x, depth_radius=1)))
print("lrn from plain ops equals tf.nn.lrn:", float(difference) < 1e-6)
