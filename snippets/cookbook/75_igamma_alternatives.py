"""igammac has the same gap; differences of IgammaGradA stop at order 2."""

import tensorflow as tf

a, x, h = tf.constant(2.0, tf.float64), tf.constant(1.5, tf.float64), 1e-5
try:
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            q = tf.math.igammac(a, x)  # 1 - igamma: the survival function
        da = inner.gradient(q, a)
    outer.gradient(da, a)
except LookupError as e:
    print(f"igammac, d2/da2: {type(e).__name__}: {e}")


def first(a, x):
    return tf.raw_ops.IgammaGradA(a=a, x=x)


@tf.custom_gradient
def grad_a_by_differences(a, x):  # d2/da2 by central differences
    def grad(dg):
        d2a = (first(a + h, x) - first(a - h, x)) / (2 * h)
        return dg * d2a, None  # (the mixed derivative left out)

    return first(a, x), grad


try:
    with tf.GradientTape() as third:
        third.watch(a)
        with tf.GradientTape() as second:
            second.watch(a)
            g = grad_a_by_differences(a, x)
        d2 = second.gradient(g, a)
    print(f"differences in grad: d2/da2 {d2:.6f}")
    third.gradient(d2, a)
except LookupError as e:
    print(f"  d3/da3: {type(e).__name__}: {e}")
