"""The alternative: the warp in TF ops alone, under XLA and in forward mode."""

import numpy as np
import tensorflow as tf


# _map and warp: the same code as in 95_projective_transform_gradient.py
def _map(coord, size, fill_mode):
    """The kernel's MapCoordinate: where a coordinate outside the image reads."""
    if fill_mode == "REFLECT":  # [abcd] -> [dcba|abcd|dcba], period 2 * size
        t = tf.math.floormod(coord, 2 * size)
        coord = tf.where(t >= size, 2 * size - 1 - t, t)
    if fill_mode in ("REFLECT", "NEAREST"):
        return tf.clip_by_value(coord, 0, size - 1)
    return coord  # CONSTANT: the pixels outside read fill_value


def warp(images, transforms, fill_mode="CONSTANT", fill_value=0.0):
    """ImageProjectiveTransformV3 (BILINEAR, output of the input's size)
    in plain TF ops: a grid, the 8 numbers, 4 gathers, in images.dtype."""
    dtype, shape = images.dtype, tf.shape(images)
    h, w = tf.cast(shape[1], dtype), tf.cast(shape[2], dtype)
    t = tf.broadcast_to(tf.cast(transforms, dtype), [shape[0], 8])
    t = t[:, :, None, None]  # [batch, 8, 1, 1]
    ys, xs = tf.meshgrid(tf.range(h), tf.range(w), indexing="ij")
    k = t[:, 6] * xs + t[:, 7] * ys + 1  # output (xs, ys) reads input (x, y)
    x = _map((t[:, 0] * xs + t[:, 1] * ys + t[:, 2]) / k, w, fill_mode)
    y = _map((t[:, 3] * xs + t[:, 4] * ys + t[:, 5]) / k, h, fill_mode)
    x0, y0 = tf.floor(x), tf.floor(y)
    batch = tf.broadcast_to(tf.range(shape[0])[:, None, None], tf.shape(x0))
    fill = tf.cast(fill_value, dtype)

    def read(yi, xi):  # pixel (yi, xi), or fill_value outside the image
        inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        yi, xi = tf.clip_by_value(yi, 0, h - 1), tf.clip_by_value(xi, 0, w - 1)
        at = tf.stack([batch, tf.cast(yi, tf.int32), tf.cast(xi, tf.int32)], -1)
        return tf.where(inside[..., None], tf.gather_nd(images, at), fill)

    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    top = (1 - fx) * read(y0, x0) + fx * read(y0, x0 + 1)
    bottom = (1 - fx) * read(y0 + 1, x0) + fx * read(y0 + 1, x0 + 1)
    return tf.where((k == 0)[..., None], fill, (1 - fy) * top + fy * bottom)


SHAPE = (1, 4, 5, 1)
rng = np.random.default_rng(0)
image = tf.constant(rng.uniform(size=SHAPE))
numbers = tf.constant(
    [[0.95, -0.3, 1.2, 0.3, 0.95, -0.4, 0.01, 0.02]], tf.float64
)
dy = tf.constant(rng.uniform(size=SHAPE))


def vjp(image, numbers):  # the gradient of sum(dy * warp) in both inputs
    with tf.GradientTape() as tape:
        tape.watch([image, numbers])
        y = warp(image, numbers)
    return tape.gradient(y, [image, numbers], output_gradients=dy)


eager = vjp(image, numbers)
xla = tf.function(vjp, jit_compile=True)(image, numbers)
print(
    f"warp under jit_compile - eager: {max(np.abs(a - b).max() for a, b in zip(xla, eager)):.1e}"
)

tangent = tf.constant(rng.uniform(size=(1, 8)))  # forward mode in the numbers
with tf.autodiff.ForwardAccumulator(numbers, tangent) as acc:
    y = warp(image, numbers)
forward = tf.reduce_sum(dy * acc.jvp(y))
reverse = tf.reduce_sum(eager[1] * tangent)
print(f"warp, forward mode {forward:.6f}, reverse mode {reverse:.6f}")
op = tf.raw_ops.ImageProjectiveTransformV3(
    images=image,
    transforms=tf.cast(numbers, tf.float32),
    output_shape=SHAPE[1:3],
    fill_value=0.0,
    interpolation="BILINEAR",
    fill_mode="CONSTANT",
)
print(f"warp - the op: {np.abs(warp(image, numbers) - op).max():.1e}")
