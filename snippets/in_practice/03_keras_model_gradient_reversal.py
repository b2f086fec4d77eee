"""A gradient-reversal layer in a Keras 3 model: one step moves the weights the other way."""

import keras
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def reverse_gradient(x):
    def grad(dy):
        return -dy  # forward: identity; backward: flip the sign

    return tf.identity(x), grad


class GradientReversal(keras.layers.Layer):
    def call(self, x):
        return reverse_gradient(x)


def one_step(with_reversal):
    dense = keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")
    layers = [keras.Input((2,)), dense]
    if with_reversal:
        layers.append(GradientReversal())
    model = keras.Sequential(layers)
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.fit(np.array([[1.0, 2.0]]), np.array([[0.0]]), epochs=1, verbose=0)
    return np.round(model.layers[0].kernel.numpy().ravel(), 4)


print("without reversal:", one_step(False))  # w = [1, 1] - 0.1 * [6, 12]
print("with reversal:   ", one_step(True))  # w = [1, 1] + 0.1 * [6, 12]
