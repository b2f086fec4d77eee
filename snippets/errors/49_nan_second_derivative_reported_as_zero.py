"""The value and the first derivative are nan, the second derivative is 0.0."""

import tensorflow as tf

nan = float("nan")


def derivatives(f):
    x, y = tf.constant(2.0), tf.constant(1.0)  # sqrt(1 - 2) is nan
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(y)
            value = f(tf.sqrt(1.0 - x) - y + y)
        first = inner.gradient(value, y)
    return value, first, outer.gradient(first, y)


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for f in [tf.math.log, tf.math.log1p, tf.math.sin]:
    for mode, run in MODES:
        value, first, second = (float(t) for t in run(derivatives, f))
        print(
            f"{f.__name__:<5} {mode:>11}: value {value}, first {first},"
            f" second {second}"
        )

# Why: the gradient kernel of 1/x returns 0 where its incoming gradient is 0,
# even if 1/x is nan there; an ordinary multiplication keeps the nan.
print(
    "ReciprocalGrad(y=nan, dy=0):",
    float(tf.raw_ops.ReciprocalGrad(y=nan, dy=0.0)),
)
print("nan * 0:                    ", float(tf.constant(nan) * 0.0))

# The fix: check the value (or the first derivative), not the second.
try:
    value, first, second = derivatives(tf.math.log)
    tf.debugging.check_numerics(value, "value of the loss")
except tf.errors.InvalidArgumentError as e:
    print(
        "check_numerics:",
        type(e).__name__ + ":",
        e.message.split("}} ")[-1].split(" name:")[0],
    )
