"""A None gradient reaches a Keras optimizer: "No gradients provided for any variable"."""

import keras
import tensorflow as tf

w = keras.Variable(2.0, name="w")


@tf.custom_gradient
def frozen(x):
    def grad(dy, variables=None):
        return dy * w, [None]  # BUG: None where the gradient for w belongs

    return x * w, grad


with tf.GradientTape() as tape:
    loss = frozen(tf.constant(3.0))
grads = tape.gradient(loss, [w])
print("gradients:", grads)
try:
    keras.optimizers.SGD(learning_rate=0.1).apply_gradients(zip(grads, [w]))
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
