"""The Hessian section of the n-th order page (docs/nth-order.md#hessian): what TensorFlow 2 offers and refuses."""

import numpy as np
import pytest
import tensorflow as tf


def f(x):
    return x[0] ** 2 * x[1] + x[1] ** 3


HESSIAN = [[4.0, 2.0], [2.0, 12.0]]  # of f at (1, 2)


def hessian(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x)


def test_no_tape_hessians_and_tf_hessians_only_in_a_graph():
    assert not hasattr(tf.GradientTape(), "hessians"), (
        "GradientTape has a `hessians` method now: update docs/nth-order.md#hessian (and its Russian twin)"
    )
    x = tf.constant([1.0, 2.0])
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled"):
        tf.hessians(f(x), x)
    assert tf.function(lambda x: tf.hessians(f(x), x)[0])(x).numpy().tolist() == HESSIAN
    graph = tf.Graph()
    with graph.as_default():  # a TensorFlow 1-style graph is graph mode too
        xg = tf.constant([1.0, 2.0])
        h = tf.hessians(f(xg), xg)[0]
    assert tf.compat.v1.Session(graph=graph).run(h).tolist() == HESSIAN, (
        "tf.hessians in a tf.Graph run by a session: update docs/nth-order.md#hessian"
    )


def test_jacobian_of_the_gradient_is_the_hessian_eager_and_in_tf_function():
    x = tf.constant([1.0, 2.0])
    assert hessian(f, x).numpy().tolist() == HESSIAN
    assert tf.function(hessian)(f, x).numpy().tolist() == HESSIAN


def test_batch_jacobian_gives_one_hessian_per_example():
    batch = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as outer:
        outer.watch(batch)
        with tf.GradientTape() as inner:
            inner.watch(batch)
            y = tf.reduce_sum(batch**3, axis=1)
        g = inner.gradient(y, batch)
    h = outer.batch_jacobian(g, batch).numpy()
    assert np.array_equal(h, [np.diag(6 * row) for row in batch.numpy()])


def test_several_variables_need_a_concat_recorded_inside_the_outer_tape():
    v, w = tf.Variable([0.5]), tf.Variable([2.0])
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape() as inner:
            y = v * v * w
        grads = inner.gradient(y, [v, w])
        inside = tf.concat(grads, axis=0)
    after = tf.concat(grads, axis=0)
    with pytest.raises(AttributeError, match="'list' object has no attribute 'shape'"):
        outer.jacobian(grads, [v, w])
    assert outer.jacobian(after, [v, w]) == [None, None], "a concat made after the block used to be unconnected"
    rows = outer.jacobian(inside, [v, w])
    assert tf.concat(rows, axis=1).numpy().tolist() == [[4.0, 1.0], [1.0, 0.0]]


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_variables_of_any_shape_need_flattened_gradients_and_reshaped_blocks(in_tf_function):
    v, w = tf.Variable(0.5), tf.Variable([[1.0, 2.0]])  # a scalar and a 1x2 matrix

    def run():
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape() as inner:
                y = v * v * tf.reduce_sum(w * w)
            grads = inner.gradient(y, [v, w])
            flat = tf.concat([tf.reshape(g, [-1]) for g in grads], axis=0)
        blocks = outer.jacobian(flat, [v, w])
        return tf.concat([tf.reshape(b, [3, -1]) for b in blocks], axis=1)

    hessian = (tf.function(run) if in_tf_function else run)()
    assert hessian.numpy().tolist() == [[10.0, 2.0, 4.0], [2.0, 0.5, 0.0], [4.0, 0.0, 0.5]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Can't concatenate scalars"):
        tf.concat([tf.constant(1.0), tf.constant([[1.0, 2.0]])], axis=0)  # dy/dv, dy/dw without reshape
