"""A recomputed block runs twice: a new dropout mask, two BatchNorm updates."""

import keras
import numpy as np
import tensorflow as tf


def checkpoint(block):  # the recipe, as in 62_checkpoint_every_order.py
    forward = tf.recompute_grad(block)

    @tf.custom_gradient
    def checkpointed(x):
        def grad(dy, variables=()):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = block(x)
            dx, *dw = tape.gradient(y, [x, *variables], output_gradients=dy)
            return (dx, dw) if variables else dx

        return forward(x), grad

    return checkpointed


def value_and_gradient(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y, tape.gradient(y, x)


tf.random.set_seed(0)
x = tf.ones([1000])  # dropout(x) = 2 * mask * x: the right dy/dx is y / x
dropout = keras.layers.Dropout(0.5, seed=1)
seed = tf.random.uniform([2], maxval=2**31 - 1, dtype=tf.int32)  # per step
blocks = {
    "tf.nn.dropout": lambda h: tf.nn.dropout(h, 0.5),
    "keras Dropout": lambda h: dropout(h, training=True),
    "stateless_dropout, seed drawn outside": (
        lambda h: tf.nn.experimental.stateless_dropout(h, 0.5, seed=seed)
    ),
}
print("dropout in the block: largest error of dy/dx (the mask of the forward)")
for name, b in blocks.items():
    errors = []
    for wrap in (lambda b: b, tf.recompute_grad, checkpoint):
        y, g = value_and_gradient(wrap(b), x)
        errors.append(f"{np.max(np.abs(g - y / x)):g}")
    print(
        f"  {name}: plain {errors[0]}, recompute_grad {errors[1]}, "
        f"checkpoint {errors[2]}"
    )


def moving_mean_after_one_step(how):
    dense = keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")
    norm = keras.layers.BatchNormalization(momentum=0.5)

    def block(h):
        return norm(dense(h), training=True)

    def norm_after(h):  # only the dense layer checkpointed
        return norm(checkpoint(dense)(h), training=True)

    f = {
        "plain": block,
        "recompute_grad": tf.recompute_grad(block),
        "checkpoint": checkpoint(block),
        "checkpoint, norm after": norm_after,
    }[how]
    z = tf.constant([[1.0], [3.0]])  # a batch of mean 2: moving mean 0 -> 1
    value_and_gradient(f, z)
    return norm.moving_mean.numpy()[0]


print("BatchNormalization(momentum=0.5), one training step:")
for how in ("plain", "recompute_grad", "checkpoint", "checkpoint, norm after"):
    print(f"  {how}: moving mean {moving_mean_after_one_step(how):g}")
