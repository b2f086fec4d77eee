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
    with tf.Graph().as_default(), pytest.raises(ValueError, match="keywords arguments only when eager"):
        scale(tf.constant(1.0), factor=tf.constant(3.0))  # a TF1-style graph refuses them too


def reverse_gradient(n_grads, calls):
    """Gradient reversal whose grad returns n_grads gradients (the keyword entry's snippets 17 and 18)."""

    @tf.custom_gradient
    def reverse(x, weight):
        def grad(dy):
            calls.append(dy)
            return -weight * dy if n_grads == 1 else (-weight * dy, None)

        return tf.identity(x), grad

    return reverse


def eager_gradients(call):
    x, w = tf.constant(1.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = call(x, w)
    return tape.gradient(y, [x, w])


def test_keyword_tensors_silently_bypass_the_custom_gradient_in_eager_mode():
    calls = []
    f = reverse_gradient(1, calls)
    dx, dw = eager_gradients(lambda x, w: f(x=x, weight=w))
    assert not calls and float(dx) == 1.0 and dw is None, (
        "every tensor by keyword used to bypass the custom gradient in eager mode (plain autodiff, grad never "
        f"called); now grad calls={len(calls)}, dx={dx}, dw={dw}: update docs/errors.md#keyword-arguments"
    )


def test_mixed_keyword_input_gets_none_or_an_error_depending_on_grad():
    calls = []
    dx, dw = eager_gradients(lambda x, w: reverse_gradient(1, calls)(x, weight=w))
    assert calls and float(dx) == -3.0 and dw is None, f"mixed call, one gradient: dx={dx}, dw={dw}"
    with pytest.raises(ValueError, match="expected to return 1 gradients, but returned 2"):
        eager_gradients(lambda x, w: reverse_gradient(2, [])(x, weight=w))
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        eager_gradients(lambda x, w: reverse_gradient(1, [])(x, w))


def test_positional_tensors_with_one_gradient_each_work_in_both_modes():
    f = reverse_gradient(2, [])
    dx, dw = eager_gradients(lambda x, w: f(x, w))
    assert float(dx) == -3.0 and dw is None
    dx, dw = tf.function(lambda: eager_gradients(lambda x, w: f(x, w)))()
    assert float(dx) == -3.0 and dw is None


def test_keras_weight_argument_needs_variables_in_eager_mode_only():
    import keras

    @tf.custom_gradient
    def scale(x, w):
        return x * w, lambda dy: (dy * w, dy * x)

    keras_weight = keras.Variable(2.0)
    assert not isinstance(keras_weight, tf.Variable) and isinstance(keras_weight.value, tf.Variable), (
        "a Keras 3 variable is no longer a wrapper around a tf.Variable: update docs/errors.md#must-accept-variables"
    )

    def gradient(w):
        with tf.GradientTape() as tape:
            y = scale(tf.constant(3.0), w)
        return tape.gradient(y, w)

    assert float(gradient(tf.Variable(2.0))) == 3.0, "a tf.Variable argument should not need `variables`"
    assert float(gradient(keras_weight.value)) == 3.0, "a Keras weight's .value argument should not need it"
    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        gradient(keras_weight)
    assert float(tf.function(lambda: gradient(keras_weight))()) == 3.0, (
        "inside tf.function a Keras weight argument used to be converted to a tensor first (no `variables` needed)"
    )


def test_variable_read_inside_needs_variables_in_tf_function_too():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        return x * w, lambda dy: dy * w

    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        tf.function(scale)(tf.constant(2.0))


def test_save_options_default_keeps_custom_gradients():
    assert tf.saved_model.SaveOptions().experimental_custom_gradients is True, (
        "SaveOptions().experimental_custom_gradients is no longer True by default: docs/errors.md and "
        "docs/in-practice.md say saving without options keeps custom gradients"
    )
