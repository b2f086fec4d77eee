"""RegisterGradient + gradient_override_map in a TF1-style graph."""

import tensorflow as tf


# a NEW name in the gradient registry
@tf.RegisterGradient("StraightThroughRound")
def _straight_through_round_grad(op, dy):
    return dy  # straight-through: pass dL/dy on unchanged, dL/dx = dL/dy


with tf.Graph().as_default() as g:
    x = tf.constant([0.2, 1.7])
    w = tf.constant([1.0, 2.0])  # L = 1*round(x1) + 2*round(x2)

    y_plain = tf.round(x)  # the built-in gradient of Round: None
    with g.gradient_override_map({"Round": "StraightThroughRound"}):
        y_ste = tf.round(x)  # same op type, gradient under the new name

    grad_plain = tf.gradients(tf.reduce_sum(w * y_plain), x)[0]
    grad_ste = tf.gradients(tf.reduce_sum(w * y_ste), x)[0]

    print("op types:          ", y_plain.op.type, y_ste.op.type)
    attr = y_ste.op.get_attr("_gradient_op_type").decode()
    print("_gradient_op_type: ", attr)
    with tf.compat.v1.Session(graph=g) as sess:
        print("y = round(x)      =", sess.run(y_ste))
        print("dL/dx, built-in   =", grad_plain)
        print("dL/dx, overridden =", sess.run(grad_ste))
