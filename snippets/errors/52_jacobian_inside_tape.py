"""tape.jacobian and tape.gradient called inside the tape's own with-block."""

import logging

import tensorflow as tf


class Warnings(logging.Handler):  # collect TensorFlow's logged warnings
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


warnings = Warnings()
tf.get_logger().addHandler(warnings)

x = tf.constant([[1.0], [5.0]])
v = tf.Variable([[1.0]])

with tf.GradientTape() as tape:
    tape.watch(x)
    w = x * x * v
    jacobian = tape.jacobian(w, x)  # inside the block
print("jacobian inside a tape:", jacobian.shape)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    w = x * x * v
    gradient = tape.gradient(w, x)  # inside the block of a persistent tape
print("gradient inside a persistent tape:", gradient.numpy().ravel())
for message in warnings.messages:
    print("WARNING logged:", message)
