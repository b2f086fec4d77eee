"""float(), .numpy() or NumPy inside the tape: the gradient is None in eager
mode; inside tf.function .numpy() and NumPy raise."""

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
