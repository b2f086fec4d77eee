"""Old Keras code's K.gradients in TensorFlow 2: which module K is decides the error."""

import keras
import tensorflow as tf

x = tf.constant(3.0)
for name, K in [  # from ... import backend as K
    ("tf.keras.backend", tf.keras.backend),
    ("tf.compat.v1.keras.backend", tf.compat.v1.keras.backend),
    ("keras.backend", keras.backend),
]:
    try:
        K.gradients(x**2, [x])
    except (RuntimeError, AttributeError) as e:
        print(f"K = {name}: {type(e).__name__}: {e}")
