"""A random forward pass and the finite-difference check: which seed helps."""

import numpy as np
import tensorflow as tf


def op_seed(x):  # seed= on the op: a new draw on every call
    return x * tf.random.normal([3], seed=1, dtype=tf.float64)


def global_seed_inside(x):  # tf.random.set_seed inside the function
    tf.random.set_seed(1)
    return x * tf.random.normal([3], dtype=tf.float64)


def stateless(x):  # the seed is an input: the same draw every time
    noise = tf.random.stateless_normal([3], seed=[1, 2], dtype=tf.float64)
    return x * noise


x = tf.constant([0.5, -1.0, 2.0], tf.float64)
for f in (op_seed, global_seed_inside, stateless):
    for mode, run in (("eager", f), ("tf.function", tf.function(f))):
        same = np.array_equal(run(x).numpy(), run(x).numpy())
        theoretical, numerical = tf.test.compute_gradient(run, [x])
        error = np.max(np.abs(theoretical[0] - numerical[0]))
        print(
            f"{f.__name__:>18}, {mode:>11}: two calls equal {same!s:5}"
            f"  check error {error:.0e}"
        )
