"""sinc(x) = sin(pi x) / (pi x) is smooth at 0; its gradient there is nan."""

import keras
import numpy as np
import tensorflow as tf

X = [0.0, 1e-3, 0.5]


def shown(values):
    return "[" + ", ".join(f"{v:.5g}" for v in values) + "]"


h = 1e-6
reference = [(np.sinc(x + h) - np.sinc(x - h)) / (2 * h) for x in X]
print(f"x = {X}\nreference (float64 differences): {shown(reference)}")
for name, sinc in [
    ("keras.ops.sinc", keras.ops.sinc),
    ("tf.experimental.numpy.sinc", tf.experimental.numpy.sinc),
]:
    print(f"{name}:")
    for dtype in (tf.float32, tf.float64):
        x = tf.constant(X, dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = sinc(x)
        gradient = tape.gradient(y, x).numpy()
        print(f"  {dtype.name}: sinc(0) = {y[0]:g}, gradient {shown(gradient)}")
