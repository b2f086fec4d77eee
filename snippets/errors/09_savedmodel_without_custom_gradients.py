"""Save a SavedModel three ways, load each in a fresh process, differentiate it."""

import re
import subprocess
import sys
import tempfile

import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.1, 0.1)

    return tf.identity(x), grad


class Model(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return 3.0 * clip_gradient(x)


LOAD = """
import sys, tensorflow as tf
model = tf.saved_model.load(sys.argv[1])
x = tf.constant([1.0, 2.0])
try:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    print("gradient:", tape.gradient(y, x).numpy())
except LookupError as e:
    print(f"{type(e).__name__}: {str(e).split('. ')[0]}.")
"""

SaveOptions = tf.saved_model.SaveOptions
for label, options in [
    ("no options", None),
    (
        "experimental_custom_gradients=False",
        SaveOptions(experimental_custom_gradients=False),
    ),
    (
        "experimental_custom_gradients=True",
        SaveOptions(experimental_custom_gradients=True),
    ),
]:
    with tempfile.TemporaryDirectory() as path:
        tf.saved_model.save(Model(), path, options=options)
        # A fresh Python process, as in production: nothing of this script is in
        # it.
        command = [sys.executable, "-c", LOAD, path]
        loaded = subprocess.run(command, capture_output=True, text=True)
        print(f"{label:>36}: {loaded.stdout.strip()}")
        # TensorFlow's log, while loading
        for line in loaded.stderr.splitlines():
            if "unsaved custom gradients" in line:
                message = re.sub(r"\(.*?\)", "(...)", line.split(":", 2)[-1])
                print(
                    f"{'':>36}  WARNING logged by "
                    f"tf.saved_model.load: {message}"
                )
