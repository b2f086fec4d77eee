"""What a tape keeps of a block: plain, naive custom gradient, recompute_grad."""

import gc
import os
import subprocess
import sys
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

# The allocator's own count, asked in a fresh process with oneDNN off and on
# while a 4 MB tensor is alive:
# TensorFlow reads TF_ENABLE_ONEDNN_OPTS once, at import; unset, it is on
# for CPUs with AVX512_VNNI, AVX512_BF16 or AMX (TensorFlow 2.9 and later).
ASK = """import tensorflow as tf
x = tf.ones([1000, 1000]) @ tf.ones([1000, 1000])  # 4 MB, alive
try:
    info = tf.config.experimental.get_memory_info("CPU:0")
    print(f"current {info['current'] / 1e6:.0f} MB")
except ValueError as e:
    print(f"{type(e).__name__}: {e}")"""
for onednn, state in [("0", "off"), ("1", "on")]:
    env = dict(
        os.environ, TF_ENABLE_ONEDNN_OPTS=onednn, TF_CPP_MIN_LOG_LEVEL="3"
    )
    run = subprocess.run(
        [sys.executable, "-c", ASK], env=env, capture_output=True, text=True
    )
    print(f"get_memory_info on CPU, oneDNN {state:3}: {run.stdout.strip()}")
