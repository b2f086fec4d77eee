"""The alternative: sample alone, under XLA and in forward mode."""

import numpy as np
import tensorflow as tf


# sample: the same code as in 98_crop_and_resize_every_order.py
def sample(image, boxes, box_indices, crop_size, extrapolation_value=0.0):
    """The CropAndResize kernel (bilinear) in plain TF ops, in image.dtype
    (so a float16 image goes in as float32): each box's grid of points, the
    4 pixels around each point (gather_nd), the bilinear weights."""
    dtype, shape = image.dtype, tf.shape(image)
    h, w = tf.cast(shape[1] - 1, dtype), tf.cast(shape[2] - 1, dtype)
    y1, x1, y2, x2 = tf.unstack(tf.cast(boxes, dtype)[:, :, None], axis=1)

    def points(a, b, size, n):  # the kernel's in_y / in_x, [boxes, n]
        if n == 1:
            return 0.5 * (a + b) * size
        return a * size + tf.range(n, dtype=dtype) * (b - a) * size / (n - 1)

    y = points(y1, y2, h, crop_size[0])[:, :, None]  # [boxes, ch, 1]
    x = points(x1, x2, w, crop_size[1])[:, None, :]  # [boxes, 1, cw]
    inside = (y >= 0) & (y <= h) & (x >= 0) & (x <= w)
    y, x = tf.clip_by_value(y, 0, h), tf.clip_by_value(x, 0, w)
    y0, x0 = tf.floor(y), tf.floor(x)
    y1i, x1i = tf.math.ceil(y), tf.math.ceil(x)  # as the kernel: ceil
    grid = tf.shape(inside)
    b = tf.broadcast_to(tf.reshape(box_indices, [-1, 1, 1]), grid)

    def read(yi, xi):
        yi, xi = (tf.broadcast_to(tf.cast(i, tf.int32), grid) for i in (yi, xi))
        return tf.gather_nd(image, tf.stack([b, yi, xi], -1))

    fy, fx = (y - y0)[..., None], (x - x0)[..., None]
    top_left, top_right = read(y0, x0), read(y0, x1i)
    bottom_left, bottom_right = read(y1i, x0), read(y1i, x1i)
    top = top_left + (top_right - top_left) * fx
    bottom = bottom_left + (bottom_right - bottom_left) * fx
    fill = tf.cast(extrapolation_value, dtype)
    return tf.where(inside[..., None], top + (bottom - top) * fy, fill)


rng = np.random.default_rng(0)
image = tf.constant(rng.uniform(size=(1, 5, 5, 1)))
boxes = tf.constant([[0.1, 0.2, 0.8, 0.9]], tf.float64)
dy = tf.constant(rng.uniform(size=(1, 3, 4, 1)))


def vjp(image, boxes):  # the gradient of sum(dy * sample) in both inputs
    with tf.GradientTape() as tape:
        tape.watch([image, boxes])
        y = sample(image, boxes, [0], [3, 4])
    return tape.gradient(y, [image, boxes], output_gradients=dy)


eager = vjp(image, boxes)
xla = tf.function(vjp, jit_compile=True)(image, boxes)
gap = max(np.abs(a - b).max() for a, b in zip(xla, eager))
print(f"sample under jit_compile - eager: < 1e{np.ceil(np.log10(gap)):+03.0f}")

tangent = tf.constant(rng.uniform(size=(1, 4)))  # forward mode in the boxes
with tf.autodiff.ForwardAccumulator(boxes, tangent) as acc:
    y = sample(image, boxes, [0], [3, 4])
forward = tf.reduce_sum(dy * acc.jvp(y))
reverse = tf.reduce_sum(eager[1] * tangent)
print(f"sample, forward mode {forward:.6f}, reverse mode {reverse:.6f}")
kernel = tf.image.crop_and_resize(
    image, tf.cast(boxes, tf.float32), [0], [3, 4]
)
print(
    f"sample - the kernel: {np.abs(kernel.numpy() - sample(image, boxes, [0], [3, 4])).max():.1e}"
)
