"""ForwardAccumulator.jvp is None for tf.sign and tf.round: "not connected"."""

import tensorflow as tf

x = tf.constant([1.0, -2.0])
ZERO = tf.UnconnectedGradients.ZERO


def forward_and_reverse(f):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
    jvp = acc.jvp(y)
    jvp_zero = acc.jvp(y, unconnected_gradients=ZERO)
    return jvp, jvp_zero, tape.gradient(y, x)


def show(t):
    return None if t is None else t.numpy()


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for f in [tf.square, tf.sign, tf.round]:
    for mode, run in MODES:
        jvp, jvp_zero, grad = (show(t) for t in run(forward_and_reverse, f))
        print(
            f"{f.__name__:<6} {mode:>11}: jvp {jvp}, with ZERO {jvp_zero};"
            f" tape.gradient {grad}"
        )
