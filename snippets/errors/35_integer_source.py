"""An integer source: a warning in TensorFlow's log and a None gradient."""

import logging
import sys

import tensorflow as tf

# TensorFlow logs its warnings to stderr; copy them here, as a reader sees them
log = logging.StreamHandler(sys.stdout)
log.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
tf.get_logger().addHandler(log)

for name, x in [
    ("tf.constant(3)", tf.constant(3)),
    ("tf.constant(3.0)", tf.constant(3.0)),
]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float32) ** 2
    g = tape.gradient(y, x)
    print(f"x = {name}: dy/dx =", g if g is None else g.numpy())

# an integer variable: the tape watches it by itself, with no warning
v = tf.Variable(3)
with tf.GradientTape() as tape:
    y = tf.cast(v, tf.float32) ** 2
watched = [var.dtype.name for var in tape.watched_variables()]
print("v = tf.Variable(3): watched variables:", watched)
print("v = tf.Variable(3): dy/dv =", tape.gradient(y, v))
with tf.GradientTape() as tape:
    tape.watch(v)  # watched by hand: the same warning as for tf.constant(3)
    y = tf.cast(v, tf.float32) ** 2
print("v = tf.Variable(3), tape.watch(v): dy/dv =", tape.gradient(y, v))
