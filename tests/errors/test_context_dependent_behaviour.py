"""Claims of the error index that hold in one context and not in another (issue 20), each checked in the
context where an earlier wording was false: a TF1 graph, a non-persistent tape, float32 vs float64, the Keras 3
backend module, a step run eagerly. In-process against TensorFlow, independent of the snippets' printing."""

import uuid
import warnings

import keras
import numpy as np
import pytest
import tensorflow as tf

FIX = "update docs/errors.md (and .ru.md)"


def numpy_sinh(x, stateful=True):
    return tf.numpy_function(np.sinh, [x], tf.float32, stateful=stateful)


@pytest.mark.parametrize("stateful, op_type", [(True, "PyFunc"), (False, "PyFuncStateless")])
def test_tf_gradients_through_numpy_function_in_a_tf1_graph_is_none_without_an_error(stateful, op_type):
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        y = numpy_sinh(x, stateful)
        assert y.op.type == op_type, (
            f"tf.numpy_function(stateful={stateful}) now makes {y.op.type}; update docs/nth-order.md#registergradient"
        )
        assert tf.gradients(y, x) == [None], (
            f"tf.gradients through {op_type} in a tf.Graph is no longer [None]; {FIX} #numpy-function-no-gradient"
        )


def test_registergradient_with_an_override_gives_numpy_function_a_gradient_only_where_the_map_is_read():
    name = f"NumpySinhGrad_{uuid.uuid4().hex}"

    @tf.RegisterGradient(name)
    def _grad(op, dy):
        return dy * tf.cosh(op.inputs[0])

    def overridden(x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"PyFunc": name}):
            return numpy_sinh(x)

    def tape_gradient(f, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    x = tf.constant([1.0, 2.0])
    expected = np.cosh([1.0, 2.0])
    with tf.Graph().as_default():
        xg = tf.constant([1.0, 2.0])
        with tf.compat.v1.Session() as session:
            in_graph = session.run(tf.gradients(overridden(xg), xg))[0]
    np.testing.assert_allclose(in_graph, expected, rtol=1e-6, err_msg=f"tf.gradients in a tf.Graph; {FIX}")
    outside = tape_gradient(tf.function(overridden), x)
    np.testing.assert_allclose(outside, expected, rtol=1e-6, err_msg=f"tape outside the tf.function; {FIX}")
    assert tape_gradient(overridden, x) is None, f"an eager tape now applies the override; {FIX}"
    assert tf.function(lambda x: tape_gradient(overridden, x))(x) is None, (
        f"a tape inside tf.function now applies it; {FIX}"
    )


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "tf.function"])
def test_a_non_persistent_tape_stops_recording_at_gradient_inside_its_block(in_function):
    answers = []

    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            g = tape.gradient(x * x, x)
            try:
                with tape.stop_recording():
                    answers.append("recording")
            except RuntimeError as e:
                answers.append(str(e))
        return g

    (tf.function(run) if in_function else run)(tf.constant(3.0))
    assert answers == ["Trying to stop recording a tape which is not recording."], (
        f"a non-persistent tape now goes on recording after gradient() ({answers}); {FIX} #tape-still-recording"
    )


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "tf.function"])
def test_a_persistent_tape_records_the_gradient_computation_inside_its_block(in_function):
    def run(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            g = tape.gradient(x * x, x)
        return tape.gradient(g, x)

    second = (tf.function(run) if in_function else run)(tf.constant(3.0))
    assert second is not None and float(second) == 2.0, (
        f"persistent tape, second derivative {second}; {FIX} #tape-still-recording"
    )


def norm_gradient(dtype):
    x = tf.constant([1e-20, 0.0, 0.0], dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        n = tf.norm(x)
    return tape.gradient(n, x).numpy()


def test_norm_gradient_at_1e_20_is_inf_nan_in_float32_only():
    g32 = norm_gradient(tf.float32)
    assert np.isinf(g32[0]) and np.isnan(g32[1:]).all(), (
        f"float32 gradient at 1e-20 is now {g32}; {FIX} #norm-nan-at-zero"
    )
    assert list(norm_gradient(tf.float64)) == [1.0, 0.0, 0.0], f"float64 gradient at 1e-20; {FIX} #norm-nan-at-zero"


def test_which_keras_backend_gradients_gives_the_eager_message():
    x = tf.constant(3.0)
    for backend in (tf.keras.backend, tf.compat.v1.keras.backend):
        with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled"):
            backend.gradients(x * x, [x])
    assert keras.__version__.startswith("3."), "Keras is no longer 3; update docs/errors.md#tf-gradients-eager"
    assert not hasattr(keras.backend, "gradients"), f"keras.backend has gradients again; {FIX} #tf-gradients-eager"


class TwoHeads(keras.Model):
    def __init__(self):
        super().__init__()
        self.used = keras.layers.Dense(1)
        self.unused = keras.layers.Dense(1)

    def call(self, x):
        self.unused(x)
        return self.used(x)


@pytest.mark.parametrize(
    "run_eagerly, warning_filter, expected",
    [(False, "always", 1), (True, "always", 4), (True, "default", 1)],
    ids=["compiled step", "run_eagerly", "run_eagerly, default filter"],
)
def test_gradients_do_not_exist_warning_count_depends_on_the_step_and_the_filter(run_eagerly, warning_filter, expected):
    model = TwoHeads()
    model(np.ones((1, 2)))
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(warning_filter)
        model.fit(np.ones((4, 2)), np.ones((4, 1)), batch_size=1, epochs=1, verbose=0)
    count = sum("Gradients do not exist" in str(w.message) for w in caught)
    assert count == expected, (
        f"run_eagerly={run_eagerly}, filter {warning_filter!r}: {count} warnings in 4 steps, not {expected}; "
        f"{FIX} #gradients-do-not-exist"
    )
