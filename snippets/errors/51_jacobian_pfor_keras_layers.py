"""tape.jacobian through Keras layers that pfor once could not vectorize."""

import keras
import tensorflow as tf

keras.utils.set_random_seed(0)
x = tf.random.stateless_normal([2, 6, 3], seed=[1, 2])


def jacobians(layer):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = layer(x)
    vectorized = tape.jacobian(y, x)  # pfor, the default
    looped = tape.jacobian(y, x, experimental_use_pfor=False)
    return vectorized, tf.reduce_max(tf.abs(vectorized - looped))


def in_tf_function(f, *args):
    return tf.function(lambda: f(*args))()


MODES = [("eager", lambda f, *args: f(*args)), ("tf.function", in_tf_function)]


for layer in [
    keras.layers.LeakyReLU(),
    keras.layers.Conv1D(2, 3),
    keras.layers.LSTM(2),
]:
    for mode, run in MODES:
        jacobian, difference = run(jacobians, layer)
        print(
            f"{type(layer).__name__:<9} {mode:>11}: shape {jacobian.shape},"
            f" pfor and loop agree: {float(difference) < 1e-6}"
        )
