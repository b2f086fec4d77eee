"""Custom gradients in practice: the values each snippet prints match hand calculations, and TensorFlow
(and Keras 3) still use the custom gradient where the page says they do.

Keras examples: one SGD step (learning rate 0.1) on x = [1, 2], target 0, w = [1, 1], mean squared error:
prediction 3, d(loss)/d(prediction) = 2 * 3 = 6, d(loss)/dw = 6 * x = [6, 12].
"""

import math
import re

import numpy as np
import pytest
import tensorflow as tf

from tests.harness import run_snippet

DIR = "snippets/in_practice"


def stdout_of(name):
    path = f"{DIR}/{name}"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return path, result.stdout


def line_with(path, out, prefix):
    for line in out.splitlines():
        if line.strip().startswith(prefix):
            return line
    pytest.fail(f"{path}: no output line starts with {prefix!r}; the output changed:\n{out}")


def numbers(text):
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?", text)]


def test_variables_get_their_gradients():
    path, out = stdout_of("01_with_variables.py")
    assert "variables: ['b:0', 'w:0']" in out, f"{path}: grad should receive both variables read:\n{out}"
    assert "y = 7.0; dy/dx = 3.0 (w), dy/dw = 2.0 (x), dy/db = 1.0" in out, f"{path}:\n{out}"


def test_keras_layer_custom_gradient_halves_the_step():
    path, out = stdout_of("02_keras_layer_with_variables.py")
    plain = numbers(line_with(path, out, "Dense:").split("=")[1])
    half = numbers(line_with(path, out, "HalfGradDense:").split("=")[1])
    np.testing.assert_allclose(plain, [1 - 0.6, 1 - 1.2], atol=1e-4, err_msg=f"{path}: plain Dense step")
    np.testing.assert_allclose(
        half, [1 - 0.3, 1 - 0.6], atol=1e-4, err_msg=f"{path}: Keras did not use the custom gradient"
    )


def test_keras_model_gradient_reversal_flips_the_step():
    path, out = stdout_of("03_keras_model_gradient_reversal.py")
    without = numbers(line_with(path, out, "without reversal:").split(":")[1])
    with_rev = numbers(line_with(path, out, "with reversal:").split(":")[1])
    np.testing.assert_allclose(without, [0.4, -0.2], atol=1e-4, err_msg=f"{path}: plain step")
    np.testing.assert_allclose(
        with_rev, [1.6, 2.2], atol=1e-4, err_msg=f"{path}: the reversal layer's gradient was not used"
    )


def test_tf_function_same_values_grad_traced_once():
    path, out = stdout_of("04_inside_tf_function.py")
    expected = [f"{1 / (1 + math.exp(-x)):.4f}" for x in (0.0, 1.0, 2.0)]
    eager = line_with(path, out, "eager:")
    compiled = line_with(path, out, "tf.function:")
    for line in (eager, compiled):
        assert str(expected) in line, f"{path}: gradients should be sigmoid(x) = {expected}:\n{out}"
    assert "ran 3 time(s)" in eager, f"{path}: eager mode should run grad's Python on every call:\n{out}"
    assert "ran 1 time(s)" in compiled, f"{path}: tf.function should run grad's Python once (tracing):\n{out}"


def test_savedmodel_reload_keeps_custom_gradient_not_default():
    path, out = stdout_of("05_savedmodel_roundtrip.py")
    assert "value: [3. 6.]" in out, f"{path}: forward value changed:\n{out}"
    assert "gradient: [0.1 0.1]" in out, (
        f"{path}: after reload in a fresh process the gradient should be the custom (clipped) 0.1, "
        f"not the default 3.0:\n{out}"
    )


def test_stop_gradient_interplay():
    path, out = stdout_of("08_stop_gradient.py")
    assert "gradient 2.0" in line_with(path, out, "stop_gradient inside"), f"{path}: grad should win:\n{out}"
    assert "gradient None, grad called 0 times" in line_with(path, out, "stop_gradient around"), f"{path}:\n{out}"
    assert "gradient None, grad called 1 times" in line_with(path, out, "the same around a tf.function call"), (
        f"{path}: around a tf.function call, grad's Python should run once (building the backward pass):\n{out}"
    )
    assert "value 1.0, gradient 1.0" in line_with(path, out, "x + stop_gradient"), f"{path}:\n{out}"


@tf.function
def _center(x):
    return x - tf.reduce_mean(tf.unique(x)[0])


@tf.function
def _center_stopped(x):
    return x - tf.reduce_mean(tf.stop_gradient(tf.unique(x)[0]))


@tf.function
def _shuffled(x):
    return tf.random.shuffle(x)


def _gradient_through_custom(forward, tape_in_function):
    @tf.custom_gradient
    def f(x):
        return forward(x), lambda dy: dy

    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    return (tf.function(gradient) if tape_in_function else gradient)(tf.constant([1.0, 2.0, 2.0]))


def test_an_op_without_gradient_in_a_tf_function_of_the_forward_pass_raises_under_an_eager_tape_only():
    """docs/in-practice.md#stop-gradient: the tf.custom_gradient docstring's note, with tf.unique."""
    fix = "update docs/in-practice.md#stop-gradient (and .ru.md) and snippets/in_practice/10_stop_gradient_inner_tf_function.py"
    with pytest.raises(LookupError, match="No gradient defined for operation'Unique'"):
        _gradient_through_custom(_center, tape_in_function=False)
    assert list(_gradient_through_custom(_center, tape_in_function=True).numpy()) == [1.0, 1.0, 1.0], (
        f"a tape inside tf.function now raises too; {fix}"
    )
    for tape_in_function in (False, True):
        gradient = _gradient_through_custom(_center_stopped, tape_in_function).numpy()
        assert list(gradient) == [1.0, 1.0, 1.0], f"tf.stop_gradient no longer prevents the LookupError; {fix}"
        gradient = _gradient_through_custom(_shuffled, tape_in_function).numpy()
        assert list(gradient) == [1.0, 1.0, 1.0], f"the docstring's tf.random.shuffle example raises again; {fix}"


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "tf.function"])
def test_a_non_trainable_variable_read_in_the_forward_pass_needs_no_variables_argument(in_function):
    """docs/in-practice.md#with-variables: only trainable variables count."""
    w = tf.Variable(2.0, trainable=False)

    @tf.custom_gradient
    def scale(x):
        return w * x, lambda dy: dy * w  # no variables argument

    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = scale(x)
        return tape.gradient(y, x)

    result = (tf.function(run) if in_function else run)(tf.constant(3.0))
    assert float(result) == 2.0, (
        "a trainable=False variable now needs `variables`; update docs/in-practice.md#with-variables"
    )
