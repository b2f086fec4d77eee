"""Loading in the SAME process hides the loss: the old grad is still in the registry."""

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


with tempfile.TemporaryDirectory() as path:
    options = tf.saved_model.SaveOptions(experimental_custom_gradients=False)
    tf.saved_model.save(Model(), path, options=options)
    model = tf.saved_model.load(path)  # same process as the save
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    print(
        "gradient after load in the same process:", tape.gradient(y, x).numpy()
    )
