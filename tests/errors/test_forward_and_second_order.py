"""None in forward mode and a finite second derivative of nan (docs/errors/none.md#forward-mode-jvp-none and
#nan-second-derivative-reported-as-zero), checked in-process against TensorFlow."""

import math

import pytest
import tensorflow as tf

ZERO = tf.UnconnectedGradients.ZERO


def forward_and_reverse(f):
    x = tf.constant([1.0, -2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
    return acc.jvp(y), acc.jvp(y, unconnected_gradients=ZERO), tape.gradient(y, x)


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_sign_and_round_are_not_connected_in_forward_mode(in_tf_function):
    run = tf.function(forward_and_reverse) if in_tf_function else forward_and_reverse
    for f, reverse in [(tf.sign, [0.0, 0.0]), (tf.round, None)]:
        jvp, jvp_zero, grad = run(f)
        assert jvp is None, f"jvp of {f.__name__} is no longer None: update docs/errors/none.md#forward-mode-jvp-none"
        assert jvp_zero.numpy().tolist() == [0.0, 0.0]
        assert (grad if grad is None else grad.numpy().tolist()) == reverse, f"{f.__name__}: tape gave {grad}"


def derivatives(f):
    x, y = tf.constant(2.0), tf.constant(1.0)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(y)
            value = f(tf.sqrt(1.0 - x) - y + y)
        first = inner.gradient(value, y)
    return [float(t) for t in (value, first, outer.gradient(first, y))]


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_second_derivative_of_log_at_nan_is_zero_but_of_sin_is_nan(in_tf_function):
    run = tf.function(derivatives) if in_tf_function else derivatives
    for f in (tf.math.log, tf.math.log1p):
        value, first, second = run(f)
        assert math.isnan(value) and math.isnan(first) and second == 0.0, (
            f"{f.__name__}: value {value}, first {first}, second {second}; the page says nan, nan, 0.0: update "
            "docs/errors/second-derivative.md#nan-second-derivative-reported-as-zero"
        )
    assert all(math.isnan(v) for v in run(tf.math.sin))


def test_reciprocal_gradient_kernel_returns_zero_for_a_zero_incoming_gradient():
    nan = float("nan")
    assert float(tf.raw_ops.ReciprocalGrad(y=nan, dy=0.0)) == 0.0
    assert math.isnan(float(tf.constant(nan) * 0.0))


def test_check_numerics_catches_the_nan_value():
    value = tf.math.log(tf.sqrt(1.0 - tf.constant(2.0)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor had NaN values"):
        tf.debugging.check_numerics(value, "value")
