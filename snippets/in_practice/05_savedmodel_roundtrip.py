"""Save a model with a custom gradient, load it in a fresh process: the gradient survives."""

import subprocess
import sys
import tempfile

import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.1, 0.1)  # custom: at most 0.1 in size

    return tf.identity(x), grad


class Model(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return 3.0 * clip_gradient(x)  # plain autodiff would give dy/dx = 3


LOAD = """
import sys, tensorflow as tf
model = tf.saved_model.load(sys.argv[1])
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = model(x)
print("value:", y.numpy(), "gradient:", tape.gradient(y, x).numpy())
"""

with tempfile.TemporaryDirectory() as path:
    # experimental_custom_gradients=True is the default in TF 2.21; say it
    # anyway
    options = tf.saved_model.SaveOptions(experimental_custom_gradients=True)
    tf.saved_model.save(Model(), path, options=options)
    loaded = subprocess.run(
        [sys.executable, "-c", LOAD, path],
        capture_output=True,
        text=True,
        check=True,
    )
    print("loaded in a fresh process ->", loaded.stdout.strip())
