"""Both kinds of gradient survive tf.saved_model.save by default; with experimental_custom_gradients=False both are lost."""
import os
import subprocess
import sys
import tempfile

import tensorflow as tf


@tf.RegisterGradient("StraightThroughRound")
def _straight_through_round_grad(op, dy):
    return dy


@tf.custom_gradient
def round_ste(x):
    return tf.round(x), lambda dy: dy


class Rounding(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def with_override_map(self, x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"Round": "StraightThroughRound"}):
            return tf.round(x)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def with_custom_gradient(self, x):
        return round_ste(x)


LOAD_AND_DIFFERENTIATE = """
import sys, tensorflow as tf
m = tf.saved_model.load(sys.argv[1])  # a fresh process: our Python gradient functions do not exist here
x = tf.constant([0.2, 1.7])
for name in ["with_override_map", "with_custom_gradient"]:
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.constant([1.0, 2.0]) * getattr(m, name)(x))
        print(f"  {name:21}: dL/dx = {tape.gradient(loss, x).numpy()}")
    except LookupError as e:
        print(f"  {name:21}: {type(e).__name__}: {str(e).split('. ')[0]}.")
"""

for save_grads in [True, False]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rounding")
        options = tf.saved_model.SaveOptions(experimental_custom_gradients=save_grads)
        tf.saved_model.save(Rounding(), path, options=options)
        print(f"saved with experimental_custom_gradients={save_grads}, loaded in a new process:")
        run = subprocess.run([sys.executable, "-c", LOAD_AND_DIFFERENTIATE, path],
                             capture_output=True, text=True)
        print(run.stdout, end="")
