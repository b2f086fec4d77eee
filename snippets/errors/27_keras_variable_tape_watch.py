"""tape.watch refuses a Keras 3 weight; its .value is the tf.Variable to watch."""

import keras
import tensorflow as tf

layer = keras.layers.Dense(2)
layer.build((None, 3))
kernel = layer.kernel
print("isinstance(layer.kernel, tf.Variable):", isinstance(kernel, tf.Variable))

x = tf.ones([1, 3])
with tf.GradientTape(watch_accessed_variables=False) as tape:
    try:
        tape.watch(kernel)
    except ValueError as e:
        message = " ".join(str(e).split())
        head, _, tail = message.partition(", dtype")
        print("tape.watch(layer.kernel): ValueError:", head, "...")
        print("   ", tail[tail.index("of type") :])
    y = tf.reduce_sum(layer(x))

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(kernel.value)  # the tf.Variable inside the Keras weight
    y = tf.reduce_sum(layer(x))
print(
    "tape.watch(layer.kernel.value): gradient",
    tape.gradient(y, kernel).numpy().tolist(),
)
