"""Mapping an op type to an unregistered name fails at tf.gradients."""

import tensorflow as tf

with tf.Graph().as_default() as g:
    x = tf.constant([0.2, 1.7])
    # a typo: "StraightThroughRuond" was never registered
    with g.gradient_override_map({"Round": "StraightThroughRuond"}):
        y = tf.round(x)  # no error here
    try:
        tf.gradients(y, x)
    except LookupError as e:
        print(type(e).__name__ + ":", str(e).split(". ")[0] + ".")
    # to find the culprit, print the name the gradient is looked up under:
    print("op type:", y.op.type)
    looked_up_as = y.op.get_attr("_gradient_op_type").decode()
    print("gradient looked up as:", looked_up_as)
