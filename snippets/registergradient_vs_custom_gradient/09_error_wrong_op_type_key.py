"""A wrong op-type key in gradient_override_map is silently ignored; print op.type to find the right key."""
import tensorflow as tf


@tf.RegisterGradient("TimesTen")
def _times_ten(op, dy):  # an obviously different gradient, so we can see whether it is used
    return [10.0 * dy] + [None] * (len(op.inputs) - 1)  # one gradient per op input


with tf.Graph().as_default() as g:
    x = tf.constant(3.0)
    for key, make_y in [("round", lambda: tf.round(x)),      # Python name, not the op type
                        ("tf.round", lambda: tf.round(x)),   # still not the op type
                        ("Square", lambda: x ** 2),          # x ** 2 is a Pow op, not Square
                        ("Round", lambda: tf.round(x)),      # right
                        ("Pow", lambda: x ** 2)]:            # right for x ** 2
        with g.gradient_override_map({key: "TimesTen"}):
            y = make_y()
        dx = tf.gradients(y, x)[0]
        value = "None" if dx is None else tf.compat.v1.Session().run(dx)
        used = "override USED" if value == 10.0 else "override ignored, no error"
        print(f"key {key!r:10} op.type={y.op.type!r:8} dy/dx={value!s:5} -> {used}")
