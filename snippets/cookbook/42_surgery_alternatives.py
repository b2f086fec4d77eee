"""Without a decorator: scaling with tf.stop_gradient; two traps nearby."""

import keras
import tensorflow as tf


def scale_trick(x, s):  # MuZero's scale_gradient: value x, gradient s
    return x * s + tf.stop_gradient(x) * (1 - s)


x = tf.constant([0.1, 0.2, 0.5])  # float32
with tf.GradientTape() as tape:
    tape.watch(x)
    y = scale_trick(x, 0.1)
print(f"scale trick, s = 0.1: gradient {tape.gradient(y, x)}")
print(f"  value - x: {(y - x).numpy()}")  # rounding: not x exactly
y = scale_trick(x, 0.5)
print(f"scale trick, s = 0.5: value - x: {(y - x).numpy()}")
x = tf.constant(1.2, tf.float64)  # order 2, as for scale_gradient(0.5)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = scale_trick(x, 0.5) ** 3
    first = inner.gradient(y, x)
second = outer.gradient(first, x)
print(f"  at 1.2: order 1 {first:.2f}, order 2 {second:.2f} (reverse)")
with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0, tf.float64)) as acc:
    with tf.GradientTape() as inner:  # forward over reverse
        inner.watch(x)
        y = scale_trick(x, 0.5) ** 3
    first = inner.gradient(y, x)
print(f"  forward over reverse: order 2 {acc.jvp(first):.2f}")

# normalizing by dividing: nan where no gradient arrives (dy = 0)
zero = tf.zeros(3)
print(f"dy / norm(dy) at dy = 0: {zero / tf.norm(zero)}")
print(f"divide_no_nan:           {tf.math.divide_no_nan(zero, tf.norm(zero))}")

# clipping the gradient tape.gradient returns, or in the optimizer, is not
# clipping at a point of the model: u = 2 x sits between x and the point
x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    u = 2 * x
    y = tf.reduce_sum(u**3)  # dy/du = 3 u**2 = [12, 48, 108]
g = tape.gradient(y, x)
print(f"clipped at u, then times 2: {2 * tf.clip_by_value(3 * u**2, -1, 1)}")
print(f"clip_by_value(tape.gradient): {tf.clip_by_value(g, -1.0, 1.0)}")
keras.optimizers.SGD(1.0, clipvalue=1.0).apply_gradients([(g, x)])
print(f"SGD(1.0, clipvalue=1.0) moves x by {[1.0, 2.0, 3.0] - x}")
