"""Mapping an op type to a name nobody registered fails only at tf.gradients, and the message blames the op."""
import tensorflow as tf

with tf.Graph().as_default() as g:
    x = tf.constant([0.2, 1.7])
    with g.gradient_override_map({"Round": "StraightThroughRuond"}):  # typo, never registered
        y = tf.round(x)  # no error here
    try:
        tf.gradients(y, x)
    except LookupError as e:
        print(type(e).__name__ + ":", str(e).split(". ")[0] + ".")
    # to find the culprit, look at the name the op will be looked up under:
    print("op type:", y.op.type, "| gradient looked up as:", y.op.get_attr("_gradient_op_type").decode())
