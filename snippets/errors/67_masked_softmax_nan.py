"""A softmax whose row is masked entirely with -inf: nan probabilities, a
nan loss and a nan gradient, even with that row weighted by 0; a large
finite negative number that fits the dtype keeps all three finite (-1e9 in
float32; in float16 -1e9 is -inf again, and Keras uses -3e4)."""

import tensorflow as tf

keep = tf.constant([[True, True, False], [False, False, False]])  # row 2: none
for dtype, fill in [
    ("float32", float("-inf")),
    ("float32", -1e9),
    ("float16", -1e9),
    ("float16", -3e4),
]:
    scores = tf.Variable(tf.constant([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], dtype))
    weights = tf.constant([1.0, 0.0], dtype)  # row 2 does not count in the loss
    with tf.GradientTape() as tape:
        mask = tf.where(keep, tf.constant(0.0, dtype), tf.constant(fill, dtype))
        probs = tf.nn.softmax(scores + mask)
        loss = tf.reduce_sum(weights * -tf.math.log(probs[:, 0]))
    g = tape.gradient(loss, scores)
    print(
        f"{dtype}, mask {fill:g} (stored as {mask[1, 0].numpy()}): loss {float(loss):.4f}"
    )
    print(f"  probabilities, row 2: {probs[1].numpy().round(3)}")
    print(f"  gradient, row 2:      {g[1].numpy()}")
