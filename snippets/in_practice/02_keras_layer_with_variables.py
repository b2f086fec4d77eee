"""A Keras 3 layer whose weight gets a custom (halved) gradient, trained one step."""

import keras
import numpy as np
import tensorflow as tf


class HalfGradDense(keras.layers.Layer):
    """y = x @ w, but w learns at half speed: its gradient is halved."""

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="ones")

    def call(self, x):
        @tf.custom_gradient
        def matmul(x):
            # read here, so grad gets it in `variables`
            w = tf.convert_to_tensor(self.w)

            def grad(dy, variables=None):
                dx = tf.matmul(dy, w, transpose_b=True)
                dw = tf.matmul(x, dy, transpose_a=True)
                return dx, [0.5 * dw]  # one gradient per variable (here just w)

            return tf.matmul(x, w), grad

        return matmul(x)


x = np.array([[1.0, 2.0]], dtype="float32")
target = np.array([[0.0]], dtype="float32")
plain = keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")
for layer in [plain, HalfGradDense()]:
    model = keras.Sequential([keras.Input((2,)), layer])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.train_on_batch(x, target)  # one step of SGD
    w = np.round(layer.weights[0].numpy().ravel(), 4)
    print(f"{type(layer).__name__:>13}: w after one step = {w}")
