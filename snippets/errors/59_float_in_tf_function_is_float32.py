"""float() under tf.function: AutoGraph casts to float32, whatever the dtype."""

import tensorflow as tf


def loss_and_gradient(w):
    with tf.GradientTape() as tape:
        loss = float(w * 3.0)  # AutoGraph: tf.cast(w * 3.0, tf.float32)
    return loss, tape.gradient(loss, w)


def mixed(w):
    return float(w * 3.0) * w  # a float32 tensor times the variable


for dtype in [tf.float32, tf.float64]:
    w = tf.Variable(1.0 + 1e-12, dtype=dtype)
    loss, g = tf.function(loss_and_gradient)(w)
    print(
        f"{dtype.name} variable: loss is {loss.dtype.name}, "
        f"loss - 3 = {float(loss) - 3.0:.1e}, gradient {float(g)}"
    )
    try:
        product = float(tf.function(mixed)(w))
        print(f"{dtype.name} variable: float(w * 3.0) * w = {product:.1f}")
    except TypeError as e:
        message = str(e).strip().splitlines()[-1].strip()
        print(f"{dtype.name} variable: float(w * 3.0) * w: {message}")
print(f"eager float() of the float64 loss, minus 3: {float(w * 3.0) - 3.0:.1e}")
