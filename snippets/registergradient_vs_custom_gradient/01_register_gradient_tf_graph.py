"""RegisterGradient + gradient_override_map in a TF1-style graph: tf.round gets a straight-through gradient."""
import tensorflow as tf


@tf.RegisterGradient("StraightThroughRound")  # a NEW name in the gradient registry
def _straight_through_round_grad(op, dy):
    return dy  # let dL/dy pass through unchanged: dL/dx = dL/dy


with tf.Graph().as_default() as g:
    x = tf.constant([0.2, 1.7])
    w = tf.constant([1.0, 2.0])  # L = 1*round(x[0]) + 2*round(x[1]), so dL/dy = [1, 2]

    y_plain = tf.round(x)  # built-in gradient of Round: None
    with g.gradient_override_map({"Round": "StraightThroughRound"}):
        y_ste = tf.round(x)  # same op type, but its gradient is looked up under the new name

    grad_plain = tf.gradients(tf.reduce_sum(w * y_plain), x)[0]
    grad_ste = tf.gradients(tf.reduce_sum(w * y_ste), x)[0]

    print("op types:              ", y_plain.op.type, y_ste.op.type)
    print("_gradient_op_type attr:", y_ste.op.get_attr("_gradient_op_type").decode())
    with tf.compat.v1.Session(graph=g) as sess:
        print("y = round(x)          =", sess.run(y_ste))
        print("dL/dx, built-in       =", grad_plain)
        print("dL/dx, overridden     =", sess.run(grad_ste))
