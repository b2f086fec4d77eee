"""Inside tf.function: the same values, but grad's Python code runs only while tracing."""

import tensorflow as tf

python_runs = {"grad": 0}


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        # Python: runs in eager mode, or once while tracing
        python_runs["grad"] += 1
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return tape.gradient(y, x)


compiled = tf.function(gradient)
for mode, f in [("eager", gradient), ("tf.function", compiled)]:
    python_runs["grad"] = 0
    values = [f"{f(tf.constant(x)).numpy():.4f}" for x in [0.0, 1.0, 2.0]]
    runs = python_runs["grad"]
    print(f"{mode:>11}: gradients {values}, Python in grad ran {runs} time(s)")
