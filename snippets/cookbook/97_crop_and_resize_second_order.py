"""tf.image.crop_and_resize: order 1 works, order 2 raises LookupError."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
image = tf.constant(rng.uniform(size=(1, 5, 5, 1)))  # float64
boxes = tf.constant([[0.1, 0.2, 0.8, 0.9]])  # float32 only: y1, x1, y2, x2


def loss(image, boxes):  # an RoIAlign-like crop into a 3 x 3 grid
    return tf.reduce_sum(
        tf.sin(tf.image.crop_and_resize(image, boxes, [0], [3, 3]))
    )


for name in ("image", "boxes"):
    source = image if name == "image" else boxes
    with tf.GradientTape() as outer:
        outer.watch(source)
        with tf.GradientTape() as inner:
            inner.watch(source)
            y = loss(image, boxes)
        g = inner.gradient(y, source)  # order 1: fine
        penalty = tf.reduce_sum(g**2)
    print(f"order 1 in {name}: {g.dtype.name}, shape {g.shape}")
    try:
        outer.gradient(penalty, source)
    except LookupError as e:
        print(f"order 2 in {name}: LookupError: {e}")


@tf.function
def in_a_graph(image):
    g = tf.gradients(loss(image, boxes), image)[0]
    return tf.gradients(tf.reduce_sum(g**2), image)


try:
    in_a_graph(image)
except Exception as e:  # noqa: BLE001 -- a StagingError wrapping a LookupError
    message = str(e)
    start = message.index("LookupError")
    print(f"tf.gradients: {message[start : message.index(')', start) + 1]}")
