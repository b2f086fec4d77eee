"""Claims of the error index that hold in one context and not in another (issue 20), each checked in the
context where an earlier wording was false: a TF1 graph, a non-persistent tape, float32 vs float64, the Keras 3
backend module, a step run eagerly; an unknown static shape, a second calling line, a variable the function reads,
run_functions_eagerly, a dict argument, a Keras layer called eagerly without a tape, a grad that calls a custom-gradient function with the tapes outside a tf.function. In-process against TensorFlow, independent of the snippets' printing."""

import logging
import uuid
import warnings

import keras
import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.platform import tf_logging

FIX = "update (in both languages) docs/"


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
            f"tf.gradients through {op_type} in a tf.Graph is no longer [None]; {FIX}errors/none.md#numpy-function-no-gradient"
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
        f"a non-persistent tape now goes on recording after gradient() ({answers}); {FIX}errors/no-longer-happens.md#tape-still-recording"
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
        f"persistent tape, second derivative {second}; {FIX}errors/no-longer-happens.md#tape-still-recording"
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
        f"float32 gradient at 1e-20 is now {g32}; {FIX}errors/nan-inf.md#norm-nan-at-zero"
    )
    assert list(norm_gradient(tf.float64)) == [1.0, 0.0, 0.0], (
        f"float64 gradient at 1e-20; {FIX}errors/nan-inf.md#norm-nan-at-zero"
    )


def test_which_keras_backend_gradients_gives_the_eager_message():
    x = tf.constant(3.0)
    for backend in (tf.keras.backend, tf.compat.v1.keras.backend):
        with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled"):
            backend.gradients(x * x, [x])
    assert keras.__version__.startswith("3."), (
        "Keras is no longer 3; update docs/errors/error-message.md#tf-gradients-eager"
    )
    assert not hasattr(keras.backend, "gradients"), (
        f"keras.backend has gradients again; {FIX}errors/error-message.md#k-gradients-by-module, snippets/errors/60_k_gradients_by_module.py"
    )


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
        f"{FIX}errors/not-used.md#gradients-do-not-exist"
    )


def assert_raises(run, kind, text, where):
    """run() raises `kind` with `text` in its message; otherwise the failure names what to update."""
    try:
        run()
    except Exception as e:  # any other error is a changed behaviour too
        assert isinstance(e, kind) and text in str(e), f"now {type(e).__name__}: {str(e)[:300]}; {where}"
    else:
        raise AssertionError(f"no {kind.__name__} ({text!r}) any more; {where}")


# --- contexts a reviewer found where an earlier sentence was false (docs/errors/, issue: false claims) -----------


@tf.custom_gradient
def wrong_shape(x):
    return 2.0 * x, lambda dy: tf.reduce_sum(dy, keepdims=True)  # (1,) for a (3,) input


@pytest.mark.parametrize("context", ["tf.gradients in tf.function", "tape outside tf.function"])
@pytest.mark.parametrize("signature", [None, [tf.TensorSpec([None])]], ids=["static shape", "input_signature [None]"])
def test_graph_backward_pass_checks_a_gradient_against_the_static_shape_only(context, signature):
    x = tf.constant([1.0, 2.0, 3.0])

    def run():
        if context == "tf.gradients in tf.function":
            return tf.function(lambda x: tf.gradients(wrong_shape(x), x)[0], input_signature=signature)(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.function(wrong_shape, input_signature=signature)(x)
        return tape.gradient(y, x)

    where = f"{FIX}errors/error-message.md#addn-dtype-or-shape, snippets/errors/56_wrong_shape_unknown_static_shape.py"
    if signature is None:
        assert_raises(run, ValueError, "Incompatible shapes between op input and calculated input gradient", where)
    else:
        g = run()
        assert g.shape == (1,), f"{context}, unknown static shape: a (1,) gradient now gives {g.shape}; {where}"


def test_the_integer_watch_warning_is_counted_per_calling_line():
    messages = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: messages.append(record.getMessage())

    def watch(x):
        with tf.GradientTape() as tape:
            tape.watch(x)  # one calling line, however often watch() runs

    tf.get_logger().addHandler(handler)
    try:
        for i in range(7):
            watch(tf.constant(i))
        first_line = len(messages)
        for i in range(7):
            with tf.GradientTape() as tape:
                tape.watch(tf.constant(i))  # another line: counted apart
    finally:
        tf.get_logger().removeHandler(handler)
    assert all("The dtype of the watched tensor must be floating" in m for m in messages), messages
    assert (first_line, len(messages)) == (5, 10), (
        f"7 watches on one line, then 7 on another: {first_line} and {len(messages)} warnings, not 5 and 10 "
        f"(log_first_n per calling line); {FIX}errors/none.md#integer-source, snippets/errors/58_integer_source_warning_count.py"
    )


def test_an_integer_variable_is_listed_as_watched_and_gets_a_none_gradient():
    v = tf.Variable(3)
    with tf.GradientTape() as tape:
        y = tf.cast(v, tf.float32) ** 2
    where = f"{FIX}errors/none.md#integer-source, snippets/errors/35_integer_source.py"
    assert [w.dtype for w in tape.watched_variables()] == [tf.int32], f"watched_variables() changed; {where}"
    assert tape.gradient(y, v) is None, f"an integer variable now gets a gradient; {where}"


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_float_under_tf_function_casts_to_float32_whatever_the_dtype(dtype):
    w = tf.Variable(1.0 + 1e-12, dtype=dtype)

    def loss_and_gradient():
        with tf.GradientTape() as tape:
            loss = float(w * 3.0)
        return loss, tape.gradient(loss, w)

    loss, g = tf.function(loss_and_gradient)()
    where = f"{FIX}errors/none.md#python-number-in-tape, snippets/errors/59_float_in_tf_function_is_float32.py"
    assert loss.dtype == tf.float32 and float(g) == 3.0, f"{dtype.name}: loss {loss.dtype.name}, gradient {g}; {where}"
    mixed = tf.function(lambda: float(w * 3.0) * w)
    if dtype == tf.float64:
        assert float(loss) == 3.0, f"float64: the float32 loss kept the 1e-12 ({float(loss) - 3.0}); {where}"
        assert_raises(mixed, TypeError, "has type float64 that does not match type float32", where)
    else:
        assert float(mixed()) == 3.0, where


def test_wrong_number_of_gradients_in_tf_function_counts_a_variable_too():
    w = tf.Variable(4.0)

    @tf.custom_gradient
    def too_few_with_variable(x, y):
        def grad(dy, variables=None):
            return dy * y * w, [dy * x * y]

        return x * y * w, grad

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = too_few_with_variable(x, y)
        return tape.gradient(z, [x, y])

    where = f"{FIX}errors/error-message.md#returned-too-few-gradients, snippets/errors/02_wrong_number_of_gradients_tf_function.py"
    assert_raises(
        lambda: step(tf.constant(2.0), tf.constant(3.0)), tf.errors.InternalError, "Expected 4 but received 3", where
    )


def test_numpy_in_grad_works_when_functions_run_eagerly():
    calls = []

    @tf.custom_gradient
    def double(x):
        def grad(dy):
            calls.append(1)
            return dy.numpy() * 2.0

        return 2.0 * x, grad

    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = double(x)
        return tape.gradient(y, x)

    step = tf.function(gradient)
    tf.config.run_functions_eagerly(True)
    try:
        results = [float(step(tf.constant(1.0))) for _ in range(3)]
    finally:
        tf.config.run_functions_eagerly(False)
    where = f"{FIX}errors/only-in-tf-function.md#symbolictensor-numpy, snippets/errors/61_numpy_in_grad_run_functions_eagerly.py"
    assert (results, len(calls)) == ([2.0, 2.0, 2.0], 3), (
        f"run_functions_eagerly(True): {results}, grad ran {len(calls)} times; {where}"
    )
    where = f"{FIX}errors/only-in-tf-function.md#symbolictensor-numpy, snippets/errors/61_numpy_in_grad_run_functions_eagerly.py"
    assert_raises(lambda: tf.function(gradient)(tf.constant(1.0)), AttributeError, "no attribute 'numpy'", where)


@pytest.mark.parametrize("in_tf_function", [False, True], ids=["eager", "tf.function"])
@pytest.mark.parametrize("as_dict", [False, True], ids=["written order", "a dict"])
def test_a_dict_argument_takes_its_gradients_in_sorted_key_order(in_tf_function, as_dict):
    @tf.custom_gradient
    def f(d):  # y = 10 * a + b
        def grad(dy):
            return {"b": dy * 1.0, "a": dy * 10.0} if as_dict else (dy * 1.0, dy * 10.0)

        return d["b"] + 10.0 * d["a"], grad

    a, b = tf.constant(1.0), tf.constant(2.0)

    def gradients():
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = f({"b": b, "a": a})
        return tape.gradient(y, [a, b])

    da, db = (tf.function(gradients) if in_tf_function else gradients)()
    expected = (10.0, 1.0) if as_dict else (1.0, 10.0)  # a tuple in written order: swapped
    assert (float(da), float(db)) == expected, (
        f"dy/da, dy/db = {float(da)}, {float(db)}, not {expected}; "
        f"{FIX}errors/error-message.md#expected-to-return-n-gradients, snippets/errors/57_dict_argument_gradient_order.py"
    )


def test_a_keras_weight_argument_fails_on_any_eager_call_without_a_tape_too():
    @tf.custom_gradient
    def scale(x, w):
        return x * w, lambda dy: (dy * w, tf.reduce_sum(dy * x))

    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(), initializer=keras.initializers.Constant(2.0))

        def call(self, x):
            return scale(x, self.w)

    where = f"{FIX}errors/error-message.md#must-accept-variables, snippets/errors/19_keras_weight_as_argument.py"
    layer = Scale()
    layer.build(None)
    message = "grad_fn must accept keyword argument 'variables'"
    assert_raises(lambda: layer(tf.constant(3.0)), TypeError, message, f"a layer call, no tape; {where}")
    model = keras.Sequential([keras.Input((1,)), Scale()])
    model.compile(loss="mse")
    assert model.predict(np.ones((1, 1)), verbose=0).tolist() == [[2.0]], f"compiled predict; {where}"
    model.compile(loss="mse", run_eagerly=True)
    predict = lambda: model.predict(np.ones((1, 1)), verbose=0)  # noqa: E731
    assert_raises(predict, TypeError, message, f"predict, run_eagerly=True; {where}")


@pytest.mark.parametrize("autograph", [True, False], ids=["AutoGraph", "autograph=False"])
def test_integer_watch_warnings_in_tf_functions_share_one_count_under_autograph(autograph):
    """In AutoGraph-converted code the caller that log_first_n sees is AutoGraph's own call site."""
    messages = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: messages.append(record.getMessage())

    @tf.function(autograph=autograph)
    def c(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
        return x

    @tf.function(autograph=autograph)
    def d(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
        return x

    saved = dict(tf_logging._log_counter_per_token)
    tf_logging._log_counter_per_token.clear()  # other tests' watches must not use up the count
    tf.get_logger().addHandler(handler)
    try:
        for n in range(1, 5):
            c(tf.zeros([n], tf.int32))
            d(tf.zeros([n], tf.int32))
    finally:
        tf.get_logger().removeHandler(handler)
        tf_logging._log_counter_per_token.clear()
        tf_logging._log_counter_per_token.update(saved)
    count = sum("dtype of the watched tensor" in m for m in messages)
    expected = 5 if autograph else 8
    assert count == expected, (
        f"two tape.watch lines in tf.function(autograph={autograph}), 4 traces each: {count} warnings, not "
        f"{expected}; {FIX}errors/none.md#integer-source, snippets/errors/58_integer_source_warning_count.py"
    )


def _py_function_gradient(body, context):
    x = tf.constant([[1.0, 2.0, 3.0]])

    def f(x):
        return tf.py_function(body, [x], tf.float32)

    def taped():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    if context == "eager":
        return taped(), x
    if context == "tf.function":
        return tf.function(taped)(), x
    return tf.function(lambda: tf.gradients(f(x), x)[0])(), x


@pytest.mark.parametrize("context", ["eager", "tf.function", "tf.gradients"])
def test_py_function_differentiates_tensorflow_ops_inside_and_gives_a_scalar_zero_for_numpy(context):
    where = f"{FIX}errors/none.md#numpy-function-no-gradient (the tf.py_function paragraph), snippets/errors/79_*"
    g, x = _py_function_gradient(lambda t: tf.sinh(t), context)
    assert g is not None and np.allclose(g, np.cosh(x)), f"py_function of tf.sinh, {context}: gradient {g}; {where}"
    g, _ = _py_function_gradient(lambda t: np.sinh(t.numpy()), context)
    assert g is not None and g.shape == () and float(g) == 0.0, (
        f"py_function of np.sinh, {context}: the gradient is {g!r}, no longer a scalar 0.0; {where}"
    )


# errors/error-message.md#grad-calls-custom-gradient-out-of-scope: a grad that calls a custom-gradient function on x


def _exp_calling(inner_input):
    @tf.custom_gradient
    def f(x):
        return tf.exp(x), lambda dy: dy * f(inner_input(x))

    return f


def _second_derivative(f, x, jacobian=False):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.jacobian(y, x) if jacobian else inner.gradient(y, x)
    return first, outer.gradient(first, x)


def _reloaded(f, tmp_path):
    module = tf.Module()
    module.f = tf.function(f, input_signature=[tf.TensorSpec([], tf.float32)])
    tf.saved_model.save(module, str(tmp_path))
    return tf.saved_model.load(str(tmp_path)).f


# The error raised for the grad calling the function on x (and, through a SavedModel, on tf.identity(x) too).
_OUT_OF_SCOPE = {
    ("tapes around", "x"): TypeError,
    ("tf.function in tf.function", "x"): ValueError,  # InaccessibleTensorError
    ("reloaded SavedModel", "x"): TypeError,
    ("reloaded SavedModel", "tf.identity(x)"): TypeError,
    ("jacobian around", "x"): TypeError,
    ("jacobian around", "tf.identity(x)"): TypeError,
}


@pytest.mark.parametrize(
    "context",
    ["eager", "tapes inside", "tapes around", "tf.function in tf.function", "reloaded SavedModel", "jacobian around"],
)
@pytest.mark.parametrize("call_on", ["x", "tf.identity(x)", "plain ops"])
def test_grad_calling_a_custom_gradient_function_raises_with_a_tf_function_in_between(context, call_on, tmp_path):
    if call_on == "plain ops":

        @tf.custom_gradient
        def f(x):
            return tf.exp(x), lambda dy: dy * tf.exp(x)

    else:
        f = _exp_calling((lambda x: x) if call_on == "x" else tf.identity)
    x = tf.constant(1.0)
    run = {
        "eager": lambda: _second_derivative(f, x),
        "tapes inside": tf.function(lambda: _second_derivative(f, x)),
        "tapes around": lambda: _second_derivative(tf.function(f), x),
        "tf.function in tf.function": tf.function(lambda: _second_derivative(tf.function(f), x)),
        "reloaded SavedModel": lambda: _second_derivative(_reloaded(f, tmp_path), x),
        "jacobian around": lambda: _second_derivative(tf.function(f), x, jacobian=True),
    }[context]
    anchor = f"{FIX}errors/error-message.md#grad-calls-custom-gradient-out-of-scope"
    error = _OUT_OF_SCOPE.get((context, call_on))
    if error:
        with pytest.raises(error, match="is out of scope and cannot be used here") as raised:
            run()
        assert "which is out of scope" in str(raised.value), f"the message's last line changed; {anchor}"
        return
    try:
        first, second = run()
    except (TypeError, ValueError) as e:
        pytest.fail(f"grad calling the function on {call_on}, {context}: now raises {e!s:.200}; {anchor}")
    assert np.allclose([first, second], np.e), (
        f"grad calling the function on {call_on}, {context}: {float(first)}, {float(second)}, not e twice; {anchor}"
    )
