"""Two built-in ways around logm's missing gradient, and where each stops."""

import numpy as np
import tensorflow as tf


def symmetric(a):  # both formulas see the same symmetric matrix
    return (a + tf.transpose(a)) / 2


def logm_eigh(a):  # a symmetric positive definite: V diag(log l) V^T
    values, vectors = tf.linalg.eigh(symmetric(a))
    return vectors @ tf.linalg.diag(tf.math.log(values)) @ tf.transpose(vectors)


def logm_real(a):  # the built-in forward pass, for the values
    a = symmetric(a)
    return tf.math.real(tf.linalg.logm(tf.complex(a, tf.zeros_like(a))))


w = tf.constant(np.linspace(-1, 1, 9).reshape(3, 3))
h, steps = 1e-6, tf.reshape(tf.eye(9, dtype=tf.float64), [9, 3, 3])
for name, a in [
    (
        "distinct eigenvalues",
        [[2.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 3.0]],
    ),
    (
        "a repeated eigenvalue",
        [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 1.0]],
    ),
    (
        "two eigenvalues 1e-10 apart",
        [[2.0, 0.0, 0.0], [0.0, 2.0 + 1e-10, 0.0], [0.0, 0.0, 1.0]],
    ),
]:
    a = tf.constant(a, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        value = tf.reduce_sum(w * logm_eigh(a))
    gradient = tape.gradient(value, a).numpy()
    diffs = [
        tf.reduce_sum(w * (logm_real(a + h * e) - logm_real(a - h * e))) / 2 / h
        for e in steps
    ]
    reference = np.reshape(diffs, [3, 3])
    print(
        f"eigh, {name}: values equal logm: "
        f"{np.allclose(logm_eigh(a), logm_real(a), atol=1e-12)}"
    )
    print(
        f"  gradient {gradient[0].round(4)}, reference {reference[0].round(4)}"
    )

# Only the trace of logm: trace(logm a) = log det a, which has a gradient
a = tf.constant([[2.0, 0.3, 0.1], [0.2, 1.5, 0.4], [0.1, 0.1, 1.0]], tf.float64)
trace = tf.linalg.trace(tf.linalg.logm(tf.complex(a, tf.zeros_like(a))))
with tf.GradientTape() as tape:
    tape.watch(a)
    sign, log_det = tf.linalg.slogdet(a)
print(f"trace(logm a) = {tf.math.real(trace):.6f}, log det a = {log_det:.6f}")
print(
    f"  gradient of log det a: {tape.gradient(log_det, a).numpy()[0].round(4)}"
)
