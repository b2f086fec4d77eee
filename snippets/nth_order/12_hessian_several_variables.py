"""The Hessian of a function of several variables of any shape: flatten each
gradient and concatenate them inside the outer tape, take one jacobian, and
reshape its blocks into the columns of one matrix."""

import tensorflow as tf

v, w = tf.Variable(0.5), tf.Variable([[1.0, 2.0]])  # a scalar and a 1x2 matrix

with tf.GradientTape(persistent=True) as outer:
    with tf.GradientTape() as inner:
        y = v * v * tf.reduce_sum(w * w)
    grads = inner.gradient(y, [v, w])  # a list: [dy/dv, dy/dw]
    flat = tf.concat([tf.reshape(g, [-1]) for g in grads], axis=0)  # recorded
    try:
        tf.concat(grads, axis=0)  # without flattening: shapes () and (1, 2)
    except tf.errors.InvalidArgumentError as e:
        message = str(e).split("}} ")[-1].split(" (")[0]
        print("tf.concat(grads): InvalidArgumentError:", message)
late = tf.concat([tf.reshape(g, [-1]) for g in grads], axis=0)  # not recorded

try:
    outer.jacobian(grads, [v, w])
except AttributeError as e:
    print("jacobian of the list: AttributeError:", e)
print(
    "jacobian of a concat made after the block:", outer.jacobian(late, [v, w])
)
blocks = outer.jacobian(flat, [v, w])  # shapes (3,) and (3, 1, 2)
n = flat.shape[0]  # 3 weights in all
hessian = tf.concat([tf.reshape(b, [n, -1]) for b in blocks], axis=1)
print("Hessian:", hessian.numpy().tolist())
