"""tape.jacobian of a batch of size 0, with and without pfor."""

import tensorflow as tf

v = tf.Variable(1.0)


def jacobian(use_pfor):
    inputs = tf.zeros([0, 4])  # a batch with no examples
    with tf.GradientTape(persistent=True) as tape:
        outputs = v * inputs**2
    return tape.jacobian(outputs, v, experimental_use_pfor=use_pfor)


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for use_pfor in [True, False]:
    for mode, run in MODES:
        shape = run(jacobian, use_pfor).shape
        print(
            f"experimental_use_pfor={use_pfor!s:<5} {mode:>11}: shape {shape}"
        )
