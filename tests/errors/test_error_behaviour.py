"""The error index, checked in-process against TensorFlow itself (independent of the snippets' printing)."""

import uuid

import pytest
import tensorflow as tf


def two_input_function(n_grads):
    @tf.custom_gradient
    def multiply(x, y):
        def grad(dy):
            return (dy * y, dy * x, dy)[:n_grads] if n_grads > 1 else dy * y

        return x * y, grad

    return multiply


def test_wrong_number_of_gradients_eager():
    x, y = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = two_input_function(1)(x, y)
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(z, [x, y])


@pytest.mark.parametrize("n_grads, received", [(1, 2), (3, 4)])
def test_wrong_number_of_gradients_tf_function_says_too_few_either_way(n_grads, received):
    f = two_input_function(n_grads)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = f(x, y)
        return tape.gradient(z, [x, y])

    with pytest.raises(
        tf.errors.InternalError, match=f"returned too few gradients. Expected 3 but received {received}"
    ):
        step(tf.constant(2.0), tf.constant(3.0))


def test_variables_without_argument_raises_in_forward_pass():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy):
            return dy * w

        return x * w, grad

    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        scale(tf.constant(2.0))


def test_duplicate_registration_raises_key_error():
    name = f"Dup{uuid.uuid4().hex}"
    tf.RegisterGradient(name)(lambda op, dy: dy)
    with pytest.raises(KeyError, match="Registering two gradient with name"):
        tf.RegisterGradient(name)(lambda op, dy: dy)


def test_keyword_arguments_refused_in_tf_function():
    @tf.custom_gradient
    def scale(x, factor=2.0):
        return x * factor, lambda dy: dy * factor

    with pytest.raises(ValueError, match="keywords arguments only when eager execution is enabled"):
        tf.function(lambda x: scale(x, factor=3.0))(tf.constant(1.0))


def test_save_options_default_keeps_custom_gradients():
    assert tf.saved_model.SaveOptions().experimental_custom_gradients is True, (
        "SaveOptions().experimental_custom_gradients is no longer True by default: docs/errors.md and "
        "docs/in-practice.md say saving without options keeps custom gradients"
    )
