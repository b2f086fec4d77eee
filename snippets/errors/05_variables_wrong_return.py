"""grad accepts `variables` but returns the wrong structure."""

import tensorflow as tf

w = tf.Variable(3.0, name="w")


@tf.custom_gradient
def only_input_gradient(x):
    def grad(dy, variables=None):
        return dy * w  # BUG: must be (input_gradients, variable_gradients)

    return x * w, grad


@tf.custom_gradient
def no_variable_gradient(x):
    def grad(dy, variables=None):
        return dy * w, []  # BUG: one gradient per variable is needed

    return x * w, grad


for f, x in [
    (only_input_gradient, tf.constant(2.0)),
    (only_input_gradient, tf.constant([1.0, 2.0, 3.0])),
    (no_variable_gradient, tf.constant(2.0)),
]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    try:
        tape.gradient(y, [x, w])
    except (TypeError, ValueError) as e:
        print(f"{f.__name__}, x of shape {x.shape}: {type(e).__name__}: {e}")
