"""The same .numpy() bug in grad hides while tf.function runs eagerly (debugging)."""

import tensorflow as tf

calls = []


@tf.custom_gradient
def double(x):
    def grad(dy):
        calls.append(1)
        return dy.numpy() * 2.0  # BUG: inside tf.function dy is symbolic

    return 2.0 * x, grad


def gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = double(x)
    return tape.gradient(y, x)


tf.config.run_functions_eagerly(True)  # a debugging switch: the error hides
step = tf.function(gradient)
results = [float(step(tf.constant(1.0))) for _ in range(3)]
print(f"run_functions_eagerly(True): {results}, grad ran {len(calls)} times")
tf.config.run_functions_eagerly(False)
