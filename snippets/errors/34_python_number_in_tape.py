"""float(), .numpy() or NumPy inside the tape: the gradient is None in eager
mode; inside tf.function .numpy() and NumPy raise, and float() raises where
AutoGraph does not convert it (autograph=False, a loss called by Keras fit)."""

import keras
import numpy as np
import tensorflow as tf

w = tf.Variable(2.0)


def with_float():
    return float(w * 3.0)  # a Python number: the tape loses track


def with_numpy_method():
    return (w * 3.0).numpy()  # a NumPy number: the same


def with_numpy_function():
    return np.square(w * 3.0)  # NumPy computes it, not TensorFlow


def with_tensorflow():
    return tf.square(w * 3.0)  # the fix: TensorFlow operations only


def gradient(loss_fn):
    with tf.GradientTape() as tape:
        loss = tf.convert_to_tensor(loss_fn())
    return tape.gradient(loss, w)


for loss_fn in [
    with_float,
    with_numpy_method,
    with_numpy_function,
    with_tensorflow,
]:
    g = gradient(loss_fn)
    print(
        f"{loss_fn.__name__:>19}, eager:      ", g if g is None else g.numpy()
    )
    try:
        g = tf.function(gradient)(loss_fn)
        print(f"{loss_fn.__name__:>19}, tf.function:", g.numpy())
    except (AttributeError, NotImplementedError) as e:
        message = str(e).strip().split("\n")[-1].strip().split(". ")[0]
        print(f"{loss_fn.__name__:>19}, tf.function: {message}")


def float_loss(y_true, y_pred):  # float() in a loss that Keras calls
    return tf.convert_to_tensor(float(tf.reduce_mean((y_pred - y_true) ** 2)))


def first_line(e):
    return f"{type(e).__name__}: {str(e).strip().splitlines()[0]}"


try:  # AutoGraph converts float() only in code it converts
    tf.function(gradient, autograph=False)(with_float)
except TypeError as e:
    print("         with_float, autograph=False:", first_line(e))
for run_eagerly in [False, True]:
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", loss=float_loss, run_eagerly=run_eagerly)
    try:
        before = model.layers[0].kernel.numpy().copy()
        model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
    except (TypeError, ValueError) as e:
        print(f"Keras fit, run_eagerly={run_eagerly!s:<5}:", first_line(e))
    else:  # no error: did the weights train?
        changed = bool(np.any(model.layers[0].kernel.numpy() != before))
        print(
            f"Keras fit, run_eagerly={run_eagerly!s:<5}: kernel changed:",
            changed,
        )
