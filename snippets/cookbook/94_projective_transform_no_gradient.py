"""ImageProjectiveTransformV3: no gradient in transforms, a wrong one in images."""

import keras
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
image = tf.constant(rng.uniform(size=(1, 4, 5, 1)))  # float64
numbers = tf.constant([[0.95, -0.3, 1.2, 0.3, 0.95, -0.4, 0.01, 0.02]])
dy = tf.constant(rng.uniform(size=(1, 4, 5, 1)))  # the upstream gradient


def transform(image, numbers):
    return tf.raw_ops.ImageProjectiveTransformV3(
        images=image,
        transforms=numbers,  # float32 only
        output_shape=[4, 5],
        fill_value=0.0,
        interpolation="BILINEAR",
        fill_mode="CONSTANT",
    )


with tf.GradientTape(persistent=True) as tape:
    tape.watch([image, numbers])
    y = transform(image, numbers)
    y_keras = keras.ops.image.affine_transform(
        image, numbers, fill_mode="constant"
    )
d_image, d_numbers = tape.gradient(y, [image, numbers], output_gradients=dy)
print(f"d/d transforms: {d_numbers}")
print(
    f"keras.ops.image.affine_transform, d/d transform: {tape.gradient(y_keras, numbers)}"
)

# the reference in the image is exact: the op is linear in the image, so a
# difference with a step of 1 pixel value is the derivative
exact = np.zeros(20)
for i in range(20):
    step = tf.reshape(tf.one_hot(i, 20, dtype=tf.float64), (1, 4, 5, 1))
    exact[i] = tf.reduce_sum(dy * (transform(image + step, numbers) - y))
error = np.abs(d_image.numpy().ravel() - exact).max()
print(
    f"d/d image: largest error {error:.3f} (the exact values: {exact.min():.3f} to {exact.max():.3f})"
)

# in the 8 numbers: central differences of the op (float32, so h = 1e-3)
h, e = 1e-3, np.eye(8, dtype=np.float32)
reference = [
    tf.reduce_sum(
        dy
        * (
            transform(image, numbers + h * e[i])
            - transform(image, numbers - h * e[i])
        )
    )
    / (2 * h)
    for i in range(8)
]
print(f"reference d/d transforms (h = 1e-3): {np.round(reference, 1)}")
