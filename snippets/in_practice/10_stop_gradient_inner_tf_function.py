"""A tf.function in the forward pass uses an op with no gradient: stop_gradient."""

import tensorflow as tf


@tf.function
def center(x):  # subtract the mean of the distinct values
    return x - tf.reduce_mean(tf.unique(x)[0])  # Unique: no gradient


@tf.function
def center_stopped(x):
    return x - tf.reduce_mean(tf.stop_gradient(tf.unique(x)[0]))


@tf.function
def shuffled(x):  # the tf.custom_gradient docstring's example
    return tf.random.shuffle(x)


def with_custom_gradient(forward):
    @tf.custom_gradient
    def f(x):
        return forward(x), lambda dy: dy  # the shift counts as a constant

    return f


def gradient_of(f):
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)  # the forward pass runs while the tape watches
        return tape.gradient(y, x)

    return gradient


x = tf.constant([1.0, 2.0, 2.0])
for name, forward in [
    ("center", center),
    ("center_stopped", center_stopped),
    ("shuffled", shuffled),
]:
    gradient = gradient_of(with_custom_gradient(forward))
    for context, run in [
        ("eager tape", gradient),
        ("tape in a tf.function", tf.function(gradient)),
    ]:
        try:
            result = run(x).numpy()
        except LookupError as e:
            result = f"LookupError: {str(e).split('. ')[0]}"
        print(f"{name:>14}, {context:>21}: {result}")
print("center(x) with no tape:", center(x).numpy())
