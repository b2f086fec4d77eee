"""Failures that happen only inside tf.function (docs/errors/only-in-tf-function.md#variable-in-grad-under-cond and
#tape-outside-tf-function-intermediate), checked in-process against TensorFlow."""

import traceback

import pytest
import tensorflow as tf

W = tf.Variable(2.0, trainable=False)


@tf.custom_gradient
def scale(x):
    return W * x, lambda dy: dy * W  # grad reads the variable


@tf.custom_gradient
def scale_fixed(x):
    w_value = tf.identity(W)
    return w_value * x, lambda dy: dy * w_value


def in_cond(f):
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: f(x), lambda: x)
        return tape.gradient(y, x)

    return run


def in_while_loop(f):
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: i < 1, lambda i, y: (i + 1, f(y)), (0, x))[1]
        return tape.gradient(y, x)

    return run


X = tf.constant(5.0)


def test_variable_read_in_grad_breaks_cond_and_while_loop_in_tf_function_only():
    assert float(in_cond(scale)(X)) == 2.0, "eager mode should work"
    assert float(in_while_loop(scale)(X)) == 2.0, "eager mode should work"
    with pytest.raises(AttributeError, match="Tensor.graph is undefined when eager execution is enabled"):
        tf.function(in_cond(scale))(X)
    with pytest.raises(ValueError, match="is in list of internal_captures but not in internal_capture_to_output"):
        tf.function(in_while_loop(scale))(X)


def test_the_unfiltered_traceback_passes_through_resolve_grad_inputs_in_cond_v2():
    tf.debugging.disable_traceback_filtering()
    try:
        with pytest.raises(AttributeError, match="Tensor.graph is undefined") as error:
            tf.function(in_cond(scale))(X)
    finally:
        tf.debugging.enable_traceback_filtering()
    names = [f.name for f in traceback.extract_tb(error.value.__traceback__) if f.filename.endswith("ops/cond_v2.py")]
    assert "_resolve_grad_inputs" in names, (
        f"functions of ops/cond_v2.py in the traceback: {names}; update docs/errors/only-in-tf-function.md#variable-in-grad-under-cond"
    )


def test_variable_read_in_grad_breaks_cond_for_tf_gradients_and_a_trainable_variable_too():
    @tf.function
    def with_tf_gradients(x):
        return tf.gradients(tf.cond(x > 0, lambda: scale(x), lambda: x), x)

    with pytest.raises(AttributeError, match="Tensor.graph is undefined"):
        with_tf_gradients(X)

    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale_trainable(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x]

        return v * x, grad

    with pytest.raises(AttributeError, match="Tensor.graph is undefined"):
        tf.function(in_cond(scale_trainable))(X)


def test_reading_the_variable_in_the_forward_pass_fixes_it():
    for run in (in_cond(scale_fixed), in_while_loop(scale_fixed)):
        assert float(run(X)) == 2.0
        assert float(tf.function(run)(X)) == 2.0, (
            "the fix (read the variable in the forward pass) stopped working: update "
            "docs/errors/only-in-tf-function.md#variable-in-grad-under-cond"
        )


def two_steps(x):
    h = 2.0 * x
    return h, h**2


def outer_tape(f):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h, y = f(x)
    return tape.gradient(y, h), tape.gradient(y, x)


def test_outer_tape_sees_a_tf_function_call_as_one_operation():
    dy_dh, dy_dx = outer_tape(two_steps)
    assert float(dy_dh) == 12.0 and float(dy_dx) == 24.0
    dy_dh, dy_dx = outer_tape(tf.function(two_steps))
    assert dy_dh is None and float(dy_dx) == 24.0, (
        "an outer tape used to give None for an intermediate returned by a tf.function: update "
        f"docs/errors/only-in-tf-function.md#tape-outside-tf-function-intermediate (now dy/dh={dy_dh})"
    )
    fn = tf.function(two_steps)
    caller = tf.function(lambda x: fn(x)).get_concrete_function(tf.constant(3.0))
    calls = [(op.type, len(op.outputs)) for op in caller.graph.get_operations() if "Call" in op.type]
    assert calls == [("PartitionedCall", 2)], (
        f"a tf.function call in a graph is no longer one PartitionedCall with outputs h and y: {calls}; update "
        "docs/errors/only-in-tf-function.md#tape-outside-tf-function-intermediate"
    )
