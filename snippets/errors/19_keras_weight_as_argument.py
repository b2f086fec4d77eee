"""Which variables need `variables`: a tf.Variable argument does not, a Keras 3 weight argument does (eagerly)."""

import re

import keras
import tensorflow as tf


@tf.custom_gradient
def scale(x, w):  # w is an argument, and grad returns its gradient
    def grad(dy):
        return dy * w, tf.reduce_sum(dy * x)

    return x * w, grad


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(), initializer=keras.initializers.Constant(2.0)
        )

    def call(self, x):
        return scale(x, self.w)  # the layer's weight, passed positionally


def gradients(w):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x, w)
    return tape.gradient(y, [x, w])


def eager_mode(w):
    dx, dw = gradients(w)
    return f"dy/dx = {float(dx)}, dy/dw = {float(dw)}"


def in_tf_function(w):
    # w captured, not a tf.function argument
    dx, dw = tf.function(lambda: gradients(w))()
    return f"dy/dx = {float(dx)}, dy/dw = {float(dw)}"


def fit(run_eagerly):
    model = keras.Sequential([keras.Input((1,)), Scale()])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    history = model.fit(tf.ones((2, 1)), tf.zeros((2, 1)), verbose=0)
    return f"trained, loss {history.history['loss'][0]}"


def predict(run_eagerly):  # inference only: no tape, no gradient
    model = keras.Sequential([keras.Input((1,)), Scale()])
    model.compile(loss="mse", run_eagerly=run_eagerly)
    return f"predicted {model.predict(tf.ones((1, 1)), verbose=0).tolist()}"


def layer_call():  # the layer called eagerly, no tape
    return f"output {float(layer(tf.constant(3.0)))}"


def show(label, run, *args):
    try:
        print(f"{label:37}{run(*args)}")
    except TypeError as e:
        message = re.search(
            r"@tf\.custom_gradient grad_fn .*? uses variables", str(e)
        ).group()
        print(f"{label:37}TypeError: {message}")


layer = Scale()
layer.build(None)
keras_weight = layer.w
print(
    "type(layer.w):",
    type(keras_weight).__module__ + "." + type(keras_weight).__name__,
)
print(
    "isinstance(layer.w, tf.Variable):", isinstance(keras_weight, tf.Variable)
)
print("type(layer.w.value):", type(keras_weight.value).__name__)
print()
for name, w in [
    ("tf.Variable", tf.Variable(2.0)),
    ("Keras weight", keras_weight),
    ("Keras weight's .value", keras_weight.value),
]:
    show(f"{name}, eager mode:", eager_mode, w)
    show(f"{name}, tf.function:", in_tf_function, w)
for run_eagerly in [False, True]:
    show(f"Keras fit, run_eagerly={run_eagerly}:", fit, run_eagerly)
for run_eagerly in [False, True]:
    show(f"Keras predict, run_eagerly={run_eagerly}:", predict, run_eagerly)
show("Keras layer called eagerly, no tape:", layer_call)
