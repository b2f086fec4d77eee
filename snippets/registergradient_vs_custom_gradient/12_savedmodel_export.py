"""Custom gradients in a SavedModel, loaded in a fresh process."""

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
    def override_map(self, x):
        g = tf.compat.v1.get_default_graph()
        with g.gradient_override_map({"Round": "StraightThroughRound"}):
            return tf.round(x)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def custom_gradient(self, x):
        return round_ste(x)


# runs in a NEW process, where our gradient functions were never defined
LOAD_AND_DIFFERENTIATE = """
import sys, tensorflow as tf
m = tf.saved_model.load(sys.argv[1])
x = tf.constant([0.2, 1.7])
for name in ["override_map", "custom_gradient"]:
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = getattr(m, name)(x)
            loss = tf.reduce_sum(tf.constant([1.0, 2.0]) * y)
        print(f"  {name:15}: dL/dx = {tape.gradient(loss, x).numpy()}")
    except LookupError as e:
        print(f"  {name:15}: {type(e).__name__}:")
        print("    " + str(e).split(". ")[0] + ".")
"""

for save_grads in [True, False]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rounding")
        options = tf.saved_model.SaveOptions(
            experimental_custom_gradients=save_grads
        )
        tf.saved_model.save(Rounding(), path, options=options)
        print(f"experimental_custom_gradients={save_grads}:")
        run = subprocess.run(
            [sys.executable, "-c", LOAD_AND_DIFFERENTIATE, path],
            capture_output=True,
            text=True,
        )
        print(run.stdout, end="")
