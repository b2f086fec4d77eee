""".numpy() in grad: works eagerly, fails in tf.function unless run eagerly."""

import tensorflow as tf


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


calls = []
x = tf.constant(1.0)
print(f"eager: {float(gradient(x)):.1f}")
try:
    tf.function(gradient)(x)
except AttributeError as e:
    # the last line is the message, without TF's "in user code" trace
    last_line = str(e).strip().splitlines()[-1].strip()
    message = last_line.removeprefix("AttributeError: ")
    print(f"tf.function: {type(e).__name__}: {message}")

tf.config.run_functions_eagerly(True)  # a debugging switch: the error hides
step = tf.function(gradient)
calls.clear()
results = [float(step(x)) for _ in range(3)]
print(f"run_functions_eagerly(True): {results}, grad ran {len(calls)} times")
tf.config.run_functions_eagerly(False)
