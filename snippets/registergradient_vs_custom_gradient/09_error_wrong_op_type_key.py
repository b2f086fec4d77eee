"""A wrong op-type key in gradient_override_map is silently ignored."""

import tensorflow as tf


@tf.RegisterGradient("TimesTen")
def _times_ten(op, dy):  # obviously different, so we see when it is used
    return [10.0 * dy] + [None] * (len(op.inputs) - 1)  # one per input


with tf.Graph().as_default() as g:
    x = tf.constant(3.0)
    cases = [
        ("round", lambda: tf.round(x)),  # Python name, not op type
        ("tf.round", lambda: tf.round(x)),  # not the op type either
        ("Square", lambda: x**2),  # x ** 2 is Pow, not Square
        ("Round", lambda: tf.round(x)),  # right
        ("Pow", lambda: x**2),
    ]  # right for x ** 2
    for key, make_y in cases:
        with g.gradient_override_map({key: "TimesTen"}):
            y = make_y()
        dx = tf.gradients(y, x)[0]
        value = None if dx is None else tf.compat.v1.Session().run(dx)
        used = "USED" if value == 10.0 else "ignored, no error"
        print(
            f"key {key!r:10} op.type={y.op.type!r:8} dy/dx={value!s:5} {used}"
        )
