"""A fully masked row weighted by 0 still makes the loss nan when one of its
probabilities rounds to 0: -log(0) is inf, and 0 * inf is nan. The log of
the softmax taken at once, tf.nn.log_softmax, stays finite."""

import tensorflow as tf

keep = tf.constant([[True, True, False], [False, False, False]])  # row 2: none
weights = tf.constant([1.0, 0.0])  # row 2 does not count in the loss
for dtype, fill, row_2 in [
    ("float16", -3e4, [1.0, 40.0, 70.0]),
    ("float32", -1e9, [1.0, 100.0, 200.0]),
]:
    scores = tf.Variable(tf.constant([[1.0, 2.0, 3.0], row_2], dtype))
    mask = tf.where(keep, tf.constant(0.0, dtype), tf.constant(fill, dtype))
    print(f"{dtype}, mask {fill:g}, row 2 scores {row_2}:")
    for name, log_p in [
        ("log(softmax)", lambda s: tf.math.log(tf.nn.softmax(s))),
        ("log_softmax", tf.nn.log_softmax),
    ]:
        with tf.GradientTape() as tape:
            log_probs = log_p(scores + mask)
            loss = tf.reduce_sum(tf.cast(weights, dtype) * -log_probs[:, 0])
        g = tape.gradient(loss, scores)
        print(
            f"  {name:12}  the loss is {float(loss):.4f}, row 2 gets {g[1].numpy()}"
        )
