"""A @tf.custom_gradient function called on keras.Input fails; inside a layer's
call (or a Lambda layer) it works."""

import keras
import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):  # identity forward, gradient clipped to [-1, 1]
    def grad(upstream):
        return tf.clip_by_value(upstream, -1.0, 1.0)

    return tf.identity(x), grad


inputs = keras.Input(shape=(2,))
try:
    clip_gradient(inputs)  # building a functional model
except ValueError as e:
    print("on keras.Input: ValueError:", str(e).split(". ")[0] + ".")


class ClipGradient(keras.layers.Layer):
    def call(self, x):  # runs on real tensors when the model is called
        return clip_gradient(x)


for layer in [ClipGradient(), keras.layers.Lambda(clip_gradient)]:
    model = keras.Model(
        inputs, keras.layers.Dense(1, kernel_initializer="ones")(layer(inputs))
    )
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = 10.0 * model(x)
    g = tape.gradient(loss, x)  # 10 * kernel = 10, clipped to 1
    print(f"{type(layer).__name__}: dloss/dx =", g.numpy())
