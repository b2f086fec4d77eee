"""tf.math.angle at a complex zero: the angle is 0, the gradient -inf or nan."""

import numpy as np
import tensorflow as tf


def angle_and_gradient(z):
    with tf.GradientTape() as tape:
        tape.watch(z)
        angle = tf.math.angle(z)
    return angle, tape.gradient(angle, z)


print("tf.math.angle(z) at z = 0; the convention: gradient 0")
compiled = tf.function(angle_and_gradient, jit_compile=True)
for dtype in (tf.complex64, tf.complex128):
    for size, way, run in (
        (1, "", angle_and_gradient),
        (16, "", angle_and_gradient),  # 16: whole vector packets
        (1, ", jit_compile", compiled),
    ):
        angle, g = run(tf.zeros([size], dtype))
        values = sorted({str(v) for v in g.numpy()})
        print(
            f"  {dtype.name}, {size:2} zeros{way}: "
            f"angle {angle[0]:.1f}, gradient {values}"
        )


def gradient_in_r(r):
    with tf.GradientTape() as tape:
        tape.watch(r)
        angle = tf.math.angle(tf.complex(r, tf.zeros_like(r)))
    return tape.gradient(angle, r)


print("tf.math.angle(tf.complex(r, 0)), the gradient in r; the convention: 0")
ways = {
    "one element": lambda r: gradient_in_r(r),
    "16 elements": lambda r: gradient_in_r(tf.fill([16], r))[0],
    "jit_compile": tf.function(gradient_in_r, jit_compile=True),  # one element
}
for dtype in (tf.float32, tf.float64):
    subnormal = float(np.finfo(dtype.as_numpy_dtype).tiny) / 4  # flushed
    for way, grad_of in ways.items():
        grads = []
        for r0 in (-1.0, 0.0, 1.0, subnormal):
            grads.append(
                f"r = {r0:.2g}: {grad_of(tf.constant(r0, dtype)).numpy():g}"
            )
        print(f"  {dtype.name}, {way}: " + ", ".join(grads))

r = tf.constant([-1.0, 0.0, 1.0])  # a real tensor: angle is a tf.where of pi, 0
with tf.GradientTape() as tape:
    tape.watch(r)
    angle = tf.math.angle(r)
print(f"tf.math.angle(r) of a float32 r: gradient {tape.gradient(angle, r)}")

Z, h = 3.0 + 4.0j, 1e-6  # float64 reference: d/dx + i d/dy of the angle
dx = (np.angle(Z + h) - np.angle(Z - h)) / (2 * h)
dy = (np.angle(Z + 1j * h) - np.angle(Z - 1j * h)) / (2 * h)
z = tf.constant(Z, tf.complex128)
with tf.GradientTape() as tape:
    tape.watch(z)
    angle = tf.math.angle(z)
print(
    f"z = 3+4j: gradient {tape.gradient(angle, z).numpy():.4f}, "
    f"reference {dx + 1j * dy:.4f}"
)
