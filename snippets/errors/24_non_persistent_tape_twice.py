"""A tape gives one set of gradients; a second call raises unless it is persistent."""

import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y1 = x**2
    y2 = x**3
print("first call: ", tape.gradient(y1, x).numpy())
try:
    tape.gradient(y2, x)
except RuntimeError as e:
    print("second call:", type(e).__name__ + ":", e)

with tf.GradientTape(persistent=True) as tape:
    y1 = x**2
    y2 = x**3
print(
    "persistent=True:",
    tape.gradient(y1, x).numpy(),
    tape.gradient(y2, x).numpy(),
)
del tape  # a persistent tape keeps its record until it is deleted
