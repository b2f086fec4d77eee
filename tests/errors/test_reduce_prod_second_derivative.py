"""Second derivatives of tf.reduce_prod at a zero factor (docs/errors/second-derivative.md#reduce-prod-second-derivative), checked
in-process against TensorFlow: the old NaN is gone, the mixed derivatives are still wrong, tf.multiply is right."""

import functools

import pytest
import tensorflow as tf

ENTRY = "docs/errors/second-derivative.md#reduce-prod-second-derivative"


def hessian(product, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = product(x)
        first = inner.gradient(y, x)
    return outer.jacobian(first, x)


def multiplied(x):
    return functools.reduce(tf.multiply, tf.unstack(x))


def run(in_tf_function):
    return tf.function(hessian) if in_tf_function else hessian


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_the_old_nan_is_gone(in_tf_function):
    def reported(x):
        return tf.reduce_prod(tf.constant([2.0, 0.0]) * x * x)

    second = run(in_tf_function)(reported, tf.constant([0.0]))
    assert second.numpy().ravel().tolist() == [0.0], f"tensorflow#44556: the second derivative changed, see {ENTRY}"


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_derivatives_taken_with_respect_to_a_zero_factor_are_zero(in_tf_function):
    for x, wrong in [
        ([0.0, 2.0], [[0.0, 1.0], [0.0, 0.0]]),  # true: [[0, 1], [1, 0]]
        ([0.0, 2.0, 3.0], [[0.0, 3.0, 2.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),  # true: column 0 = [0, 3, 2]
    ]:
        h = run(in_tf_function)(tf.reduce_prod, tf.constant(x)).numpy().tolist()
        assert h == wrong, (
            f"the Hessian of tf.reduce_prod at {x} is now {h} (tensorflow#61117 fixed?): move {ENTRY} to the "
            "entries that no longer happen, in both languages, and update tests/errors/problems.yml"
        )


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_tf_multiply_gives_the_right_hessian(in_tf_function):
    for x, right in [
        ([0.0, 2.0], [[0.0, 1.0], [1.0, 0.0]]),
        ([0.0, 2.0, 3.0], [[0.0, 3.0, 2.0], [3.0, 0.0, 0.0], [2.0, 0.0, 0.0]]),
    ]:
        h = run(in_tf_function)(multiplied, tf.constant(x)).numpy().tolist()
        assert h == right, f"functools.reduce(tf.multiply, tf.unstack(x)) at {x}: {h}; update the fix in {ENTRY}"
