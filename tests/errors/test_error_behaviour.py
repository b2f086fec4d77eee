"""The error index, checked in-process against TensorFlow itself (independent of the snippets' printing)."""

import logging
import uuid

import numpy as np
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
        f"called); now grad calls={len(calls)}, dx={dx}, dw={dw}: update docs/errors/not-used.md#keyword-arguments"
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
        "a Keras 3 variable is no longer a wrapper around a tf.Variable: update docs/errors/error-message.md#must-accept-variables"
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
        "SaveOptions().experimental_custom_gradients is no longer True by default: docs/errors/only-in-tf-function.md and "
        "docs/in-practice.md say saving without options keeps custom gradients"
    )


# --- the symptom index, batch 1 (tests/errors/problems.yml) -----------------------------------------


def tape_gradient(f, x, **kwargs):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, **kwargs)


def test_tf_gradients_raises_in_eager_mode_and_works_in_tf_function():
    x = tf.constant(3.0)
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled"):
        tf.gradients(x**2, x)
    assert float(tf.function(lambda x: tf.gradients(x**2, x)[0])(x)) == 6.0


def test_where_gradient_is_nan_unless_the_input_is_made_safe_first():
    x = tf.constant([-1.0, 0.0, 4.0])
    one_where = tape_gradient(lambda x: tf.where(x > 0, tf.math.log(x), 0.0), x).numpy()
    assert np.isnan(one_where[1]) and np.isfinite(tf.where(x > 0, tf.math.log(x), 0.0)).all(), (
        f"tf.where used to give a nan gradient where the log branch is not chosen (x = 0); now {one_where}: "
        "update docs/errors/nan-inf.md#where-nan-gradient"
    )
    double = tape_gradient(lambda x: tf.where(x > 0, tf.math.log(tf.where(x > 0, x, 1.0)), 0.0), x).numpy()
    assert np.allclose(double, [0.0, 0.0, 0.25]), f"the double where should give finite gradients: {double}"


def test_norm_gradient_is_nan_at_zero_and_inf_for_tiny_entries():
    zero = tf.zeros([3])
    assert np.isnan(tape_gradient(tf.norm, zero).numpy()).all(), (
        "tf.norm's gradient at the zero vector is no longer nan (tensorflow#12071 fixed?): "
        "update docs/errors/nan-inf.md#norm-nan-at-zero"
    )
    tiny = tape_gradient(tf.norm, tf.constant([1e-20, 0.0, 0.0])).numpy()
    assert np.isinf(tiny[0]) and np.isnan(tiny[1:]).all(), f"tf.norm at 1e-20: {tiny}"


def test_nested_tapes_need_the_first_gradient_inside_the_outer_tape():
    x = tf.constant(3.0)
    for inside in (False, True):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x**3
            if inside:
                first = inner.gradient(y, x)
        if not inside:
            first = inner.gradient(y, x)
        second = outer.gradient(first, x)
        if inside:
            assert float(second) == 18.0
        else:
            assert second is None, f"a first gradient taken outside the outer tape used to give None; now {second}"


def test_non_persistent_tape_gives_one_set_of_gradients():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y1, y2 = x**2, x**3
    tape.gradient(y1, x)
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to compute one set"):
        tape.gradient(y2, x)
    with tf.GradientTape(persistent=True) as tape:
        y1, y2 = x**2, x**3
    assert (float(tape.gradient(y1, x)), float(tape.gradient(y2, x))) == (4.0, 12.0)


def test_keras_warns_about_weights_without_gradients_and_trains_on():
    import warnings

    import keras

    class TwoHeads(keras.Model):
        def __init__(self):
            super().__init__()
            self.used, self.unused = keras.layers.Dense(1), keras.layers.Dense(1)

        def call(self, x):
            self.unused(x)
            return self.used(x)

    def fit(model):
        model.compile(optimizer="sgd", loss="mse")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0)
        return [w for w in caught if "Gradients do not exist for variables" in str(w.message)]

    model = TwoHeads()
    model(np.ones((1, 2)))
    before = model.unused.kernel.numpy().copy()
    assert len(fit(model)) == 1, "Keras used to warn (not raise) when some weights get no gradient"
    assert np.array_equal(before, model.unused.kernel.numpy())
    model.unused.trainable = False
    assert not fit(model), "a frozen unused layer should not be warned about"


def test_numpy_function_has_no_gradient_and_custom_gradient_supplies_one():
    x = tf.constant([1.0, 2.0])

    def numpy_sinh(x):
        return tf.numpy_function(np.sinh, [x], tf.float32)

    assert tape_gradient(numpy_sinh, x) is None
    assert tf.function(lambda x: tape_gradient(numpy_sinh, x))(x) is None

    @tf.custom_gradient
    def with_gradient(x):
        return numpy_sinh(x), lambda dy: dy * tf.cosh(x)

    assert np.allclose(tape_gradient(with_gradient, x), np.cosh([1.0, 2.0]))


def test_keras_weights_need_value_for_tape_watch_and_forward_accumulator():
    import keras

    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    with tf.GradientTape() as tape, pytest.raises(ValueError, match="not tf.Tensor or tf.Variable or ExtensionType"):
        tape.watch(layer.kernel)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(layer.kernel.value)
        y = tf.reduce_sum(layer(tf.ones([1, 3])))
    assert tape.gradient(y, layer.kernel).shape == (3, 2)
    tangents = [tf.ones(v.shape) for v in layer.trainable_variables]
    with pytest.raises(AttributeError, match="'str' object has no attribute 'is_floating'"):
        tf.autodiff.ForwardAccumulator(layer.trainable_variables, tangents)
    with tf.autodiff.ForwardAccumulator([v.value for v in layer.trainable_variables], tangents) as acc:
        y = tf.reduce_sum(layer(tf.ones([1, 3])))
    assert float(acc.jvp(y)) == 8.0  # 3 inputs x 2 units of kernel tangent 1, plus 2 bias tangents


def test_recompute_grad_refuses_a_keras_input():
    import keras

    block = tf.recompute_grad(keras.layers.Dense(4))
    with pytest.raises(ValueError, match="A KerasTensor cannot be used as input to a TensorFlow function"):
        block(keras.Input(shape=(3,)))


# --- the symptom index, batch 2 (tests/errors/problems.yml) -----------------------------------------


def in_graph(f):
    """Run f inside a tf.function; a None result comes back as the string "None"."""
    return tf.function(lambda: (lambda r: "None" if r is None else r)(f()))()


def test_tape_ignores_unwatched_constants_and_paths_computed_before_it():
    w, x = tf.Variable(1.0), tf.constant(2.0)

    def before_the_tape():
        h = w * 3.0
        with tf.GradientTape(persistent=True) as tape:
            z = x * h
        return tape.gradient(z, x), tape.gradient(z, w)

    assert before_the_tape() == (None, None), "docs/errors/none.md#source-not-watched: both used to be None"
    assert tf.function(before_the_tape)() == (None, None), "a tape inside tf.function used to give None too"

    def graph_gradient():
        h = w * 3.0
        return tf.gradients(x * h, w)[0]

    assert float(tf.function(graph_gradient)()) == 6.0, "tf.gradients follows the graph, wherever w * 3 ran"


STEPS = {
    "round": lambda x: tf.round(x),
    "argmax": lambda x: tf.cast(tf.argmax(x), tf.float32),
    "cast to int": lambda x: tf.cast(tf.cast(x, tf.int32), tf.float32),
    "comparison": lambda x: tf.cast(x > 1.0, tf.float32),
}


@pytest.mark.parametrize("name", sorted(STEPS))
def test_step_functions_have_no_gradient_anywhere(name):
    x = tf.Variable([0.4, 1.6])
    step = STEPS[name]

    def tape_gradient_of_step():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(step(x))
        return tape.gradient(y, x)

    assert tape_gradient_of_step() is None, (
        f"{name}: the gradient used to be None (docs/errors/none.md#non-differentiable-op)"
    )
    assert in_graph(tape_gradient_of_step) == "None", f"{name}: a tape inside tf.function used to give None"
    assert in_graph(lambda: tf.gradients(tf.reduce_sum(step(x)), x)[0]) == "None", f"{name}: tf.gradients: None"


def test_sign_has_a_zero_gradient_and_straight_through_passes_dy():
    x = tf.Variable([0.4, 1.6])
    with tf.GradientTape(persistent=True) as tape:
        sign = tf.reduce_sum(tf.sign(x))
        ste = tf.reduce_sum(x + tf.stop_gradient(tf.round(x) - x))
    assert tape.gradient(sign, x).numpy().tolist() == [0.0, 0.0]
    assert in_graph(lambda: tf.gradients(tf.reduce_sum(tf.sign(x)), x)[0]).numpy().tolist() == [0.0, 0.0]
    assert float(ste) == 2.0 and tape.gradient(ste, x).numpy().tolist() == [1.0, 1.0]


def test_python_numbers_cut_the_tape_in_eager_mode_but_float_is_a_cast_in_tf_function():
    w = tf.Variable(2.0)

    def gradient(loss_fn):
        with tf.GradientTape() as tape:
            loss = tf.convert_to_tensor(loss_fn())
        return tape.gradient(loss, w)

    def with_float():
        return float(w * 3.0)

    def with_numpy_method():
        return (w * 3.0).numpy()

    def with_numpy_function():
        return np.square(w * 3.0)

    for loss_fn in (with_float, with_numpy_method, with_numpy_function):
        assert gradient(loss_fn) is None, f"{loss_fn.__name__}: the eager gradient used to be None"
    assert float(tf.function(gradient)(with_float)) == 3.0, (
        "AutoGraph used to turn float() into tf.cast inside tf.function, so the gradient survived: "
        "update docs/errors/none.md#python-number-in-tape"
    )
    with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
        tf.function(gradient)(with_numpy_method)
    with pytest.raises(NotImplementedError, match="Cannot convert a symbolic tf.Tensor"):
        tf.function(gradient)(with_numpy_function)
    with pytest.raises(TypeError, match="float\\(\\) argument must be a string or a real number, not 'SymbolicTensor'"):
        tf.function(gradient, autograph=False)(with_float)  # AutoGraph converts float() only where it runs


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_float_in_a_keras_loss_raises_in_fit(run_eagerly):
    import keras

    def float_loss(y_true, y_pred):
        return tf.convert_to_tensor(float(tf.reduce_mean((y_pred - y_true) ** 2)))

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", loss=float_loss, run_eagerly=run_eagerly)
    expected = (
        (ValueError, "No gradients provided for any variable")
        if run_eagerly
        else (TypeError, "float\\(\\) argument must be a string or a real number, not 'SymbolicTensor'")
    )
    with pytest.raises(expected[0], match=expected[1]):
        model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


def test_integer_sources_get_none_everywhere():
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cast(x, tf.float32) ** 2
        return tape.gradient(y, x)

    assert gradient(tf.constant(3)) is None
    assert in_graph(lambda: gradient(tf.constant(3))) == "None"
    assert in_graph(lambda: tf.gradients(tf.cast(tf.constant(3), tf.float32) ** 2, tf.constant(3))[0]) == "None"
    v = tf.Variable(3)
    with tf.GradientTape() as tape:
        y = tf.cast(v, tf.float32) ** 2
    assert tape.gradient(y, v) is None
    from tensorflow.python.platform import tf_logging

    tf_logging._log_counter_per_token.clear()  # the warning is logged at most five times per calling line
    messages = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: messages.append(record.getMessage())
    tf.get_logger().addHandler(handler)
    try:
        with tf.GradientTape() as tape:
            tape.watch(v)  # watched by hand: the same warning as for a constant
            y = tf.cast(v, tf.float32) ** 2
    finally:
        tf.get_logger().removeHandler(handler)
    assert tape.gradient(y, v) is None
    assert any("The dtype of the watched tensor must be floating" in m for m in messages), (
        f"tape.watch on an integer variable used to log the dtype warning: {messages}; update "
        "docs/errors/none.md#integer-source"
    )
    assert float(gradient(tf.constant(3.0))) == 6.0


def test_nested_gradient_gives_hessian_row_sums_and_jacobian_the_hessian():
    def f(x):
        return x[0] ** 2 * x[1] + x[1] ** 3

    def second(x, how):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        return outer.gradient(g, x) if how == "gradient" else outer.jacobian(g, x)

    x = tf.constant([1.0, 2.0])
    for run in (lambda h: second(x, h), lambda h: tf.function(second)(x, h)):
        assert run("gradient").numpy().tolist() == [6.0, 14.0], "the gradient of a gradient used to sum the rows"
        assert run("jacobian").numpy().tolist() == [[4.0, 2.0], [2.0, 12.0]]
    nested_tf_gradients = tf.function(lambda x: tf.gradients(tf.gradients(f(x), x)[0], x)[0])(x)
    assert nested_tf_gradients.numpy().tolist() == [6.0, 14.0]


def test_batch_jacobian_twice_on_one_tape_gives_zeros_and_jacobian_none():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    def twice():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.reduce_sum(x**3, axis=1, keepdims=True)
        g = tape.batch_jacobian(y, x)
        return tape.batch_jacobian(g, x), tape.jacobian(g, x)

    for h, j in (twice(), tf.function(twice)()):
        assert not np.any(h.numpy()) and h.shape == (2, 1, 2, 2), (
            f"batch_jacobian of an unconnected target used to return zeros; now {h}: "
            "update docs/errors/second-derivative.md#hessian-zeros-same-tape"
        )
        assert j is None


def test_log1pexp_at_100_plain_nan_docstring_inf_softplus_fine():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

    def plain(x):
        return tf.math.log(1 + tf.exp(x))

    x = tf.constant(100.0)
    for grad_of in (lambda f: tape_gradient(f, x), lambda f: tf.function(lambda: tape_gradient(f, x))()):
        assert np.isnan(grad_of(plain).numpy())
        assert float(grad_of(log1pexp)) == 1.0 and np.isinf(log1pexp(x).numpy())
        assert float(grad_of(tf.math.softplus)) == 1.0 and float(tf.math.softplus(x)) == 100.0
    assert np.isnan(tf.function(lambda: tf.gradients(plain(x), x)[0])().numpy())


def test_several_outputs_need_one_grad_argument_each():
    @tf.custom_gradient
    def two_outputs(x):
        return (x * 2.0, x * 3.0), lambda upstream: upstream * 2.0

    @tf.custom_gradient
    def fixed(x):
        def grad(upstream_a, upstream_b):
            assert upstream_b is not None
            return upstream_a * 2.0 + upstream_b * 3.0

        return (x * 2.0, x * 3.0), grad

    x = tf.constant(1.0)
    message = "takes 1 positional argument but 2 were given"
    with pytest.raises(TypeError, match=message):
        tape_gradient(lambda x: sum(two_outputs(x)), x)
    with pytest.raises(TypeError, match=message):
        tf.function(lambda: tape_gradient(lambda x: sum(two_outputs(x)), x))()
    with pytest.raises(TypeError, match=message):
        tf.function(lambda: tf.gradients(sum(two_outputs(x)), x))()
    assert float(tape_gradient(lambda x: fixed(x)[0], x)) == 2.0, "an unused output's upstream used to be zeros"


def test_custom_gradient_refuses_a_keras_input_and_works_in_a_layer():
    import keras

    @tf.custom_gradient
    def identity(x):
        return tf.identity(x), lambda dy: dy

    inputs = keras.Input(shape=(2,))
    with pytest.raises(ValueError, match="A KerasTensor cannot be used as input to a TensorFlow function"):
        identity(inputs)
    assert keras.Model(inputs, keras.layers.Lambda(identity)(inputs))(tf.ones([1, 2])).shape == (1, 2)
