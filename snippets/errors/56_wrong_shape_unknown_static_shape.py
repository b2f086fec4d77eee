"""The graph's shape check compares with the static shape: unknown dims pass."""

import tensorflow as tf


@tf.custom_gradient
def wrong_shape(x):
    return 2.0 * x, lambda dy: tf.reduce_sum(dy, keepdims=True)  # BUG: (1,)


def tf_gradients(signature, x):
    run = tf.function(
        lambda x: tf.gradients(wrong_shape(x), x)[0], input_signature=signature
    )
    return run(x)


def tape_outside(signature, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.function(wrong_shape, input_signature=signature)(x)
    return tape.gradient(y, x)


x = tf.constant([1.0, 2.0, 3.0])
for name, signature in [
    ("static shape (3,)", None),
    ("input_signature [None]", [tf.TensorSpec([None])]),
]:
    for context, run in [
        ("tf.gradients in tf.function", tf_gradients),
        ("tape outside tf.function", tape_outside),
    ]:
        try:
            g = run(signature, x)
            result = f"no error, gradient {g.numpy()} for x of shape {x.shape}"
        except ValueError as e:  # inside tf.function: "in user code: ..."
            text = str(e).strip().splitlines()[-1].strip()
            text = text.removeprefix("ValueError: ").split(". Forward")[0]
            result = f"{type(e).__name__}: {text}"
        print(f"{name}, {context}:\n  {result}")
