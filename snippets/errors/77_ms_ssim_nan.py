"""tf.image.ssim_multiscale as a loss: nan gradients where a scale's
contrast term is not positive; tf.image.ssim stays finite."""

import tensorflow as tf

x = tf.Variable(tf.random.stateless_uniform([1, 176, 176, 1], seed=[1, 2]))
for name, metric in [
    ("ssim_multiscale", tf.image.ssim_multiscale),
    ("ssim", tf.image.ssim),
]:
    with tf.GradientTape() as tape:
        value = metric(x, 1.0 - x, max_val=1.0)  # a negated image
        loss = 1.0 - tf.reduce_mean(value)
    g = tape.gradient(loss, x)
    nans = int(tf.reduce_sum(tf.cast(tf.math.is_nan(g), tf.int32)))
    print(
        f"{name:>15}: value {float(value[0]):.4f}, nan gradients {nans} of {g.shape.num_elements()}"
    )
