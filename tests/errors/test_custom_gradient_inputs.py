"""What counts as an input of a custom-gradient function (docs/errors/error-message.md#hyperparameter-argument and
#variable-created-inside), checked in-process against TensorFlow."""

import pytest
import tensorflow as tf


def gradient(call, in_tf_function=False):
    def run():
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(call(x))
        return tape.gradient(y, x)

    return (tf.function(run) if in_tf_function else run)()


def flip(n_grads):
    @tf.custom_gradient
    def f(x, lam):
        return tf.identity(x), lambda dy: (-lam * dy, None)[:n_grads] if n_grads > 1 else -lam * dy

    return f


def test_a_python_number_argument_is_an_input_that_needs_a_gradient_slot():
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        gradient(lambda x: flip(1)(x, 0.5))
    with pytest.raises(tf.errors.InternalError, match="returned too few gradients. Expected 3 but received 2"):
        gradient(lambda x: flip(1)(x, 0.5), in_tf_function=True)
    for in_tf_function in (False, True):
        assert gradient(lambda x: flip(2)(x, 0.5), in_tf_function).numpy().tolist() == [-0.5, -0.5], (
            "returning None for the setting should work: update docs/errors/error-message.md#hyperparameter-argument"
        )


def test_a_setting_in_a_closure_needs_no_gradient():
    def make_flip(lam):
        @tf.custom_gradient
        def f(x):
            return tf.identity(x), lambda dy: -lam * dy

        return f

    for in_tf_function in (False, True):
        assert gradient(lambda x: make_flip(0.5)(x), in_tf_function).numpy().tolist() == [-0.5, -0.5]


def test_a_variable_created_inside_counts_as_a_variable_the_function_uses():
    @tf.custom_gradient
    def with_scratch(x):
        scratch = tf.Variable(tf.zeros([2]))
        scratch.assign(2.0 * x)
        return tf.reduce_sum(scratch), lambda dy: 2.0 * dy

    for in_tf_function in (False, True):
        with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
            gradient(with_scratch, in_tf_function)


def test_an_untrainable_scratch_variable_works_in_eager_mode_only():
    @tf.custom_gradient
    def with_untrainable_scratch(x):
        scratch = tf.Variable(tf.zeros([2]), trainable=False)
        scratch.assign(2.0 * x)
        return tf.reduce_sum(scratch), lambda dy: 2.0 * dy * tf.ones_like(x)

    assert gradient(with_untrainable_scratch).numpy().tolist() == [2.0, 2.0], (
        "a trainable=False variable created inside used to need no `variables`: update "
        "docs/errors/error-message.md#variable-created-inside"
    )
    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables created on the first call"):
        gradient(with_untrainable_scratch, in_tf_function=True)


def test_a_tensor_array_as_scratch_space_needs_no_variables():
    @tf.custom_gradient
    def with_tensors(x):
        parts = tf.TensorArray(tf.float32, size=2)
        for i in range(2):
            parts = parts.write(i, 2.0 * x[i])
        return tf.reduce_sum(parts.stack()), lambda dy: 2.0 * dy * tf.ones_like(x)

    for in_tf_function in (False, True):
        assert gradient(with_tensors, in_tf_function).numpy().tolist() == [2.0, 2.0]
