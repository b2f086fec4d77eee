"""RegisterGradient cannot replace a built-in gradient: the op type "Round" is already in the registry."""
import re

import tensorflow as tf

try:
    @tf.RegisterGradient("Round")  # wrong: this is the op type, TF already registered its gradient
    def _round_grad(op, dy):
        return dy
except KeyError as e:
    print(type(e).__name__ + ":", re.sub(r" \(Previous.*", "", e.args[0]))


# fix: register under a NEW name, then map the op type to it with gradient_override_map
@tf.RegisterGradient("StraightThroughRound")
def _straight_through_round_grad(op, dy):
    return dy


with tf.Graph().as_default() as g:
    x = tf.constant([0.2, 1.7])
    with g.gradient_override_map({"Round": "StraightThroughRound"}):
        y = tf.round(x)
    with tf.compat.v1.Session() as sess:
        print("fixed: dL/dx =", sess.run(tf.gradients(tf.reduce_sum([1.0, 2.0] * y), x)[0]))
