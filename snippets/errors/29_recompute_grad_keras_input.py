"""tf.recompute_grad on a keras.Input fails; inside a layer's call it works."""

import keras
import tensorflow as tf

dense = keras.layers.Dense(4)
block = tf.recompute_grad(dense)

try:
    block(keras.Input(shape=(3,)))  # building a functional model
except ValueError as e:
    print("on keras.Input: ValueError:", str(e).split(". ")[0] + ".")


class Recomputed(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.dense = keras.layers.Dense(units)

    def call(self, x):  # runs on real tensors when the model is called
        return tf.recompute_grad(self.dense)(x)


inputs = keras.Input(shape=(3,))
model = keras.Model(inputs, Recomputed(4)(inputs))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(tf.ones([2, 3])))
grads = tape.gradient(loss, model.trainable_variables)
print("inside a layer: gradient shapes", [g.shape.as_list() for g in grads])
