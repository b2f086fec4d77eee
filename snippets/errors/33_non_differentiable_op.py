"""tf.round, tf.argmax, a cast to an integer: the gradient is None (and Keras
says "No gradients provided"); a straight-through estimator gives one."""

import keras
import numpy as np
import tensorflow as tf

x = tf.Variable([0.4, 1.6])
steps = {
    "tf.round(x)": lambda x: tf.round(x),
    "tf.argmax(x)": lambda x: tf.cast(tf.argmax(x), tf.float32),
    "tf.cast(x, tf.int32)": lambda x: tf.cast(tf.cast(x, tf.int32), tf.float32),
    "x > 1.0": lambda x: tf.cast(x > 1.0, tf.float32),
    "tf.sign(x)": tf.sign,
    "straight-through round": lambda x: x + tf.stop_gradient(tf.round(x) - x),
}
for name, step in steps.items():
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(step(x))
    g = tape.gradient(y, x)
    print(
        f"{name:>22}: value {y.numpy()}, gradient",
        g if g is None else g.numpy(),
    )

model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile("sgd", loss=lambda t, y: tf.reduce_mean((tf.round(y) - t) ** 2))
try:
    model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
except ValueError as e:
    print("Keras fit, tf.round in the loss: ValueError:", str(e).split("\n")[0])
