"""What a tape keeps of a block: plain, naive custom gradient, recompute_grad."""

import gc
import weakref

import numpy as np
import tensorflow as tf

kept = []  # a weak reference to each intermediate of the block


def block(h):  # 7 intermediates, then the output
    for _ in range(7):
        h = tf.sin(h)
        kept.append(weakref.ref(h))  # does not keep h alive itself
    return tf.sin(h)


@tf.custom_gradient
def naive(x):  # the usual wish: "my grad recomputes, so nothing is stored"
    def grad(dy):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = block(x)
        return tape.gradient(y, x, output_gradients=dy)

    return block(x), grad


x = tf.constant([0.5, -1.0, 2.0], tf.float64)
for name, f in [
    ("plain block", block),
    ("naive @tf.custom_gradient", naive),
    ("tf.recompute_grad", tf.recompute_grad(block)),
]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        kept.clear()
        y = f(x)
        gc.collect()  # only what something still references stays alive
        alive = sum(ref() is not None for ref in kept)
    dx = tape.gradient(y, x)
    print(
        f"{name:26} intermediates kept: {alive} of 7, dx {np.round(dx.numpy(), 6)}"
    )

try:  # the allocator's own count: GPU only
    tf.config.experimental.get_memory_info("CPU:0")
except ValueError as e:
    print(f"get_memory_info on CPU: {type(e).__name__}: {e}")
