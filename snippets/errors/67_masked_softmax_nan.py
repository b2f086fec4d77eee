"""A softmax whose row is masked entirely with -inf: nan probabilities, a
nan loss and a nan gradient, even with that row weighted by 0; a finite
mask such as -1e9 keeps all three finite."""

import tensorflow as tf

scores = tf.Variable([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
keep = tf.constant([[True, True, False], [False, False, False]])  # row 2: none
weights = tf.constant([1.0, 0.0])  # row 2 does not count in the loss
for name, fill in [("-inf", float("-inf")), ("-1e9", -1e9)]:
    with tf.GradientTape() as tape:
        probs = tf.nn.softmax(scores + tf.where(keep, 0.0, fill))  # the mask
        loss = tf.reduce_sum(weights * -tf.math.log(probs[:, 0]))
    g = tape.gradient(loss, scores)
    print(f"mask {name}: loss {loss:.4f}")
    print(f"  probabilities, row 2: {probs[1].numpy().round(3)}")
    print(f"  gradient, row 2:      {g[1].numpy()}")
