"""ForwardAccumulator fails on Keras 3 weights; pass each weight's .value."""

import keras
import tensorflow as tf

model = keras.Sequential([keras.layers.Dense(3, kernel_initializer="ones")])
x = tf.ones([1, 4])
model(x)
tangents = [tf.ones(v.shape) for v in model.trainable_variables]

try:
    primals = model.trainable_variables
    with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
        y = tf.reduce_sum(model(x))
except AttributeError as e:
    print("Keras weights: AttributeError:", e)

primals = [v.value for v in model.trainable_variables]  # the tf.Variables
with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
    y = tf.reduce_sum(model(x))
print("their .value:  jvp =", acc.jvp(y).numpy())
