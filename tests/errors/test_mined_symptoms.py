"""The symptom-index entries of issue 23's mined problems (tests/errors/problems.yml, `kind: symptom`), checked
in-process against TensorFlow itself, in the context where each symptom shows. A failure means TensorFlow changed:
update the entry it names (docs/errors/<page>.md and .ru.md), its snippet and this test together."""

import gc
import math
import warnings

import keras
import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.autograph.impl.api import StagingError

MODES = [("eager", lambda f: f), ("tf.function", tf.function)]
MODE_IDS = [m[0] for m in MODES]


def where(entry):
    return f"TensorFlow changed: update docs/errors/{entry} (and .ru.md), its snippet and this test"


def has_nan(t):
    return bool(tf.reduce_any(tf.math.is_nan(t)))


# error-message.md#indexedslices-gradient
def test_gather_gradient_is_indexedslices_without_numpy():
    table = tf.Variable(tf.ones([10, 4]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(table, [1, 5, 5]))
    g = tape.gradient(loss, table)
    entry = where("error-message.md#indexedslices-gradient")
    assert isinstance(g, tf.IndexedSlices), f"the gather gradient is {type(g).__name__}; {entry}"
    assert not hasattr(g, "numpy"), entry
    assert g.indices.numpy().tolist() == [1, 5, 5], entry
    assert float(tf.reduce_sum(tf.convert_to_tensor(g)[5])) == 8.0, entry


def test_keras_embedding_gradient_is_indexedslices():
    layer = keras.layers.Embedding(10, 4)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(tf.constant([1, 5])))
    (g,) = tape.gradient(loss, layer.trainable_variables)
    assert isinstance(g, tf.IndexedSlices), where("error-message.md#indexedslices-gradient")


def test_indexedslices_warning_only_for_large_known_shapes_in_a_graph():
    from tensorflow.python.framework import indexed_slices

    entry = where("error-message.md#indexedslices-gradient")
    assert indexed_slices._LARGE_SPARSE_NUM_ELEMENTS == 100_000_000, entry

    @tf.function(input_signature=[tf.TensorSpec([None, 4])])
    def unknown_shape_gradient(params):
        with tf.GradientTape() as tape:
            tape.watch(params)
            loss = tf.reduce_sum(tf.gather(params, [0, 1]))
        return tf.convert_to_tensor(tape.gradient(loss, params))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        unknown_shape_gradient(tf.ones([3, 4]))
    assert not [w for w in caught if "IndexedSlices" in str(w.message)], f"the old warning is back; {entry}"


# none.md#tensor-item-assignment
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_tensor_item_assignment_raises_and_scatter_keeps_the_gradient(mode, wrap):
    entry = where("none.md#tensor-item-assignment")

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x**2
            z = tf.tensor_scatter_nd_update(y, [[1]], [0.0])
        return tape.gradient(z, x)

    def assign_item(x):
        y = x**2
        y[1] = 0.0
        return y

    with pytest.raises(TypeError, match="object does not support item assignment"):
        wrap(assign_item)(tf.constant([1.0, 2.0]))
    assert wrap(step)(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [2.0, 0.0, 6.0], entry


def test_variable_scatter_update_cuts_the_gradient():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        buffer = tf.Variable(tf.zeros([3]))
        buffer.scatter_nd_update([[1]], [x[1] * 2.0])
        w = tf.reduce_sum(buffer)
    assert tape.gradient(w, x) is None, where("none.md#tensor-item-assignment")


# none.md#assign-cuts-gradient
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_assign_cuts_the_gradient(mode, wrap):
    x = tf.Variable(2.0)
    memory = tf.Variable(0.0, trainable=False)

    def step():
        with tf.GradientTape(persistent=True) as tape:
            memory.assign(3.0 * x)
            through_assign = memory * memory
            h = 3.0 * x
            through_tensor = h * h
        return tape.gradient(through_assign, x), tape.gradient(through_tensor, x)

    through_assign, through_tensor = wrap(step)()
    entry = where("none.md#assign-cuts-gradient")
    assert through_assign is None, f"{mode}: a gradient through assign: {through_assign}; {entry}"
    assert float(through_tensor) == 36.0, entry


def test_tensor_scatter_with_a_duplicate_index_gives_every_duplicate_update_the_gradient():
    entry = where("none.md#tensor-item-assignment")
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        z = tf.tensor_scatter_nd_update(x**2, [[1], [1]], [x[0], 10.0 * x[0]])
        total = tf.reduce_sum(z)
    # the value keeps one update (here the last), the gradient counts both: 2 + 1 + 10, not 2 + 10
    assert float(z[1]) in (1.0, 10.0), entry
    assert tape.gradient(total, x).numpy().tolist() == [13.0, 0.0, 6.0], entry


# nan-inf.md#masked-softmax-nan
def test_fully_masked_softmax_row_is_nan_with_minus_inf_and_uniform_with_minus_1e9():
    entry = where("nan-inf.md#masked-softmax-nan")
    scores = tf.Variable([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    keep = tf.constant([[True, True, False], [False, False, False]])
    weights = tf.constant([1.0, 0.0])
    for fill, nan in [(-math.inf, True), (-1e9, False)]:
        with tf.GradientTape() as tape:
            probs = tf.nn.softmax(scores + tf.where(keep, 0.0, fill))
            loss = tf.reduce_sum(weights * -tf.math.log(probs[:, 0]))
        g = tape.gradient(loss, scores)
        assert has_nan(probs[1]) == has_nan(loss) == has_nan(g[1]) == nan, f"mask {fill}; {entry}"
    np.testing.assert_allclose(probs[1].numpy(), [1 / 3] * 3, rtol=1e-6, err_msg=entry)


@pytest.mark.parametrize(
    ("dtype", "fill", "row", "expected"),
    [
        ("float32", -1e9, [1.0, 2.0, 3.0], "uniform"),
        ("float16", -3e4, [1.0, 2.0, 3.0], "uniform"),
        ("float64", -1e9, [1.0, 2.0, 3.0], "raw"),
        ("float32", -3e4, [1.0, 2.0, 3.0], "raw"),
        ("float32", -1e9, [1.0, 40.0, 70.0], [0.0, 0.5, 0.5]),  # rounded to multiples of 64: 0, 64, 64
        ("float16", -3e4, [10.0, 5.0, 0.0], [1.0, 0.0, 0.0]),  # rounded to multiples of 16: 16, 0, 0
    ],
)
def test_a_fully_masked_row_is_uniform_only_where_the_fill_rounds_the_scores_away(dtype, fill, row, expected):
    entry = where("nan-inf.md#masked-softmax-nan")
    raw = tf.constant([row, row], dtype)
    scores = tf.Variable(raw)
    keep = tf.constant([[True, True, False], [False, False, False]])
    weights = tf.constant([1.0, 0.0], dtype)
    with tf.GradientTape() as tape:
        probs = tf.nn.softmax(scores + tf.where(keep, tf.constant(0.0, dtype), tf.constant(fill, dtype)))
        loss = tf.reduce_sum(weights * -tf.math.log(probs[:, 0]))
    g = tape.gradient(loss, scores).numpy().astype(np.float64)
    if expected == "uniform":
        expected = [1 / 3] * 3
    elif expected == "raw":
        expected = tf.nn.softmax(raw[1]).numpy()
    tol = 1e-2 if dtype == "float16" else 1e-6
    np.testing.assert_allclose(
        probs[1].numpy().astype(np.float64), expected, rtol=tol, atol=tol / 10, err_msg=f"{dtype} {fill}; {entry}"
    )
    assert math.isfinite(float(loss)) and g[1].tolist() == [0.0, 0.0, 0.0], f"{dtype} {fill}: {g}; {entry}"
    unmasked_row = tf.nn.softmax(raw[0, :2]).numpy().astype(np.float64)  # row 1 as if only its kept scores existed
    np.testing.assert_allclose(probs[0, :2].numpy().astype(np.float64), unmasked_row, rtol=tol, err_msg=entry)


def test_minus_1e9_is_minus_inf_in_float16_and_keras_fills_with_minus_3e4():
    entry = where("nan-inf.md#masked-softmax-nan")
    keep = tf.constant([[True, True, False], [False, False, False]])
    scores = tf.constant([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], tf.float16)
    for fill, nan in [(-1e9, True), (-3e4, False)]:
        probs = tf.nn.softmax(scores + tf.where(keep, tf.constant(0.0, tf.float16), tf.constant(fill, tf.float16)))
        assert has_nan(probs[1]) == nan, f"float16, mask {fill}; {entry}"
    from keras.src.layers.activations.softmax import _large_negative_number

    assert _large_negative_number("float16") == -3e4 and _large_negative_number("float32") == -1e9, entry


def test_keras_softmax_gives_zeros_for_a_fully_masked_row_and_a_finite_gradient():
    entry = where("nan-inf.md#masked-softmax-nan")
    scores = tf.Variable([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    keep = tf.constant([[True, True, False], [False, False, False]])
    with tf.GradientTape() as tape:
        probs = keras.layers.Softmax()(scores, mask=keep)
        loss = tf.reduce_sum(probs * tf.constant([1.0, 2.0, 3.0]))
    assert probs[1].numpy().tolist() == [0.0, 0.0, 0.0], f"{probs[1]}; {entry}"
    assert not has_nan(tape.gradient(loss, scores)), entry


@pytest.mark.parametrize(
    ("dtype", "fill", "row"),
    [("float16", -3e4, [1.0, 40.0, 70.0]), ("float32", -1e9, [1.0, 100.0, 200.0])],
)
def test_a_zero_weight_does_not_hide_the_log_of_a_probability_rounded_to_zero(dtype, fill, row):
    entry = where("nan-inf.md#masked-softmax-nan")
    scores = tf.Variable(tf.constant([[1.0, 2.0, 3.0], row], dtype))
    keep = tf.constant([[True, True, False], [False, False, False]])
    weights = tf.constant([1.0, 0.0], dtype)
    mask = tf.where(keep, tf.constant(0.0, dtype), tf.constant(fill, dtype))
    for log_p, nan in [(lambda s: tf.math.log(tf.nn.softmax(s)), True), (tf.nn.log_softmax, False)]:
        with tf.GradientTape() as tape:
            log_probs = log_p(scores + mask)
            loss = tf.reduce_sum(weights * -log_probs[:, 0])
        g = tape.gradient(loss, scores)
        assert has_nan(loss) == has_nan(g[1]) == nan, f"{dtype} {fill} {row}, nan expected: {nan}; {entry}"
        if not nan:
            assert g[1].numpy().tolist() == [0.0, 0.0, 0.0], f"{g}; {entry}"
    assert float(tf.nn.softmax(scores + mask)[1, 0]) == 0.0, (
        f"{dtype}: the first probability no longer rounds to 0; {entry}"
    )


# nan-inf.md#logcosh-overflow
def test_hand_written_logcosh_overflows_and_the_stable_form_and_keras_do_not():
    entry = where("nan-inf.md#logcosh-overflow")
    x = tf.Variable([1.0, 50.0, 100.0])
    with tf.GradientTape(persistent=True) as tape:
        naive = tf.math.log(tf.math.cosh(x))
        stable = x + tf.math.softplus(-2.0 * x) - math.log(2.0)
        keras_loss = keras.losses.LogCosh()(tf.zeros([3]), x)  # the mean
    assert math.isinf(float(naive[2])) and math.isnan(float(tape.gradient(naive, x)[2])), entry
    np.testing.assert_allclose(tape.gradient(stable, x).numpy(), np.tanh([1.0, 50.0, 100.0]), rtol=1e-6, err_msg=entry)
    assert abs(float(keras_loss) - float(tf.reduce_mean(stable))) < 1e-3, entry
    assert not has_nan(tape.gradient(keras_loss, x)), entry


def test_hand_written_logcosh_has_a_zero_gradient_below_the_overflow_and_the_stable_form_needs_no_abs():
    entry = where("nan-inf.md#logcosh-overflow")
    x = tf.Variable([-1e4, -100.0, 88.0, 89.0, 89.5])
    with tf.GradientTape(persistent=True) as tape:
        naive = tf.math.log(tf.math.cosh(x))
        stable = x + tf.math.softplus(-2.0 * x) - math.log(2.0)
    g = tape.gradient(naive, x).numpy()
    # at 88 Eigen's vectorised reciprocal (vectors of 8 or more) gives 0.99989533, not 1.0
    assert math.isfinite(float(naive[3])) and abs(g[2] - 1.0) < 1e-3 and g[3] == 0.0, f"{naive}, {g}; {entry}"
    assert math.isinf(float(naive[4])) and math.isnan(g[4]), entry
    np.testing.assert_allclose(
        stable.numpy()[:2], [1e4 - math.log(2.0), 100.0 - math.log(2.0)], rtol=1e-6, err_msg=entry
    )
    assert tape.gradient(stable, x).numpy()[:2].tolist() == [-1.0, -1.0], entry


def test_one_over_cosh_below_89_4_is_subnormal_and_tensorflow_flushes_it_to_zero():
    entry = where("nan-inf.md#logcosh-overflow")
    x = np.array([88.5, 89.0, 89.3], np.float32)
    in_numpy = np.float32(1.0) / np.cosh(x)  # numpy keeps the subnormals
    assert np.all((in_numpy > 0) & (in_numpy < np.finfo(np.float32).tiny)), f"{in_numpy}; {entry}"
    assert tf.math.reciprocal(tf.math.cosh(tf.constant(x))).numpy().tolist() == [0.0, 0.0, 0.0], entry
    assert float(tf.constant(np.float32(4e-39)) * tf.constant(1.0)) == 0.0, f"no flush to zero; {entry}"
    for n in [1, 8, 16]:  # scalar and vectorised kernels
        with tf.GradientTape() as tape:
            v = tf.fill([n], 89.0)
            tape.watch(v)
            y = tf.math.log(tf.math.cosh(v))
        assert tape.gradient(y, v).numpy().tolist() == [0.0] * n, f"length {n}; {entry}"


# nan-inf.md#ms-ssim-nan
def test_ms_ssim_of_a_negated_image_has_nan_gradients_and_ssim_does_not():
    entry = where("nan-inf.md#ms-ssim-nan")
    x = tf.Variable(tf.random.stateless_uniform([1, 176, 176, 1], seed=[1, 2]))
    for metric, nan in [(tf.image.ssim_multiscale, True), (tf.image.ssim, False)]:
        with tf.GradientTape() as tape:
            loss = 1.0 - tf.reduce_mean(metric(x, 1.0 - x, max_val=1.0))
        assert has_nan(tape.gradient(loss, x)) == nan, f"{metric.__name__}; {entry}"


# error-message.md#sparse-reduce-max-no-gradient
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_sparse_reduce_max_has_no_gradient_and_segment_max_has_one(mode, wrap):
    entry = where("error-message.md#sparse-reduce-max-no-gradient")
    values = tf.Variable([-1.0, 2.0, -3.0])
    indices = tf.constant([[0, 0], [1, 1], [1, 2]], tf.int64)

    def step(reduce):
        with tf.GradientTape() as tape:
            if reduce == "sparse":
                y = tf.sparse.reduce_max(tf.sparse.SparseTensor(indices, values, [2, 3]), axis=1)
            else:
                y = tf.math.unsorted_segment_max(values, indices[:, 0], 2)
        return y, tape.gradient(y, values)

    with pytest.raises((LookupError, StagingError), match="no entry for: SparseReduceMax"):
        wrap(lambda: step("sparse"))()
    y, g = wrap(lambda: step("segment"))()
    assert y.numpy().tolist() == [-1.0, 2.0] and g.numpy().tolist() == [1.0, 1.0, 0.0], entry


def test_segment_max_of_an_empty_row_is_the_lowest_float_and_tf_where_puts_the_zero_back():
    entry = where("error-message.md#sparse-reduce-max-no-gradient")
    values = tf.Variable([-1.0, 2.0, 2.0])
    indices = tf.constant([[0, 0], [2, 1], [2, 2]], tf.int64)
    rows, n = indices[:, 0], 3
    with tf.GradientTape() as tape:
        m = tf.math.unsorted_segment_max(values, rows, n)
        fixed = tf.where(tf.math.unsorted_segment_sum(tf.ones_like(values), rows, n) > 0, m, 0.0)
    by_sparse = tf.sparse.reduce_max(tf.sparse.SparseTensor(indices, values, [n, 3]), axis=1)
    assert by_sparse.numpy().tolist() == [-1.0, 0.0, 2.0] == fixed.numpy().tolist(), entry
    assert float(m[1]) == float(np.finfo(np.float32).min), entry
    assert tape.gradient(fixed, values).numpy().tolist() == [1.0, 0.5, 0.5], entry


def missing_gradient_contexts():
    values = tf.Variable([-1.0, 2.0])
    indices = tf.constant([[0, 0], [1, 1]], tf.int64)

    def forward():
        return tf.sparse.reduce_max(tf.sparse.SparseTensor(indices, values, [2, 2]), axis=1)

    def step():
        with tf.GradientTape() as tape:
            y = forward()
        return tape.gradient(y, values)

    def tape_outside():
        staged = tf.function(forward)
        with tf.GradientTape() as tape:
            y = staged()
        return tape.gradient(y, values)

    class Model(keras.Model):
        def __init__(self):
            super().__init__()
            self.w = self.add_weight(shape=(2,), initializer="ones")

        def call(self, x):
            y = tf.sparse.reduce_max(tf.sparse.SparseTensor(indices, self.w, [2, 2]), axis=1)
            return y + 0.0 * tf.reduce_sum(x)

    def keras_fit():
        model = Model()
        model.compile(optimizer="sgd", loss="mse")
        model.fit(np.zeros((2, 1)), np.zeros((2, 2)), batch_size=2, verbose=0)

    @tf.autograph.experimental.do_not_convert
    def unconverted_step():
        return step()

    return {
        "eager": step,
        "tf.function": tf.function(step),
        "tf.function(do_not_convert(step))": tf.function(unconverted_step),
        "tf.function calling a do_not_convert helper": tf.function(lambda: unconverted_step()),
        "tf.function(jit_compile=True)": tf.function(step, jit_compile=True),
        "tf.function(autograph=False)": tf.function(step, autograph=False),
        "tape outside tf.function": tape_outside,
        "keras fit": keras_fit,
    }


@pytest.mark.parametrize(
    ("context", "staging"),
    [
        ("eager", False),
        ("tf.function", True),
        ("tf.function(do_not_convert(step))", False),
        ("tf.function calling a do_not_convert helper", True),
        ("tf.function(jit_compile=True)", True),
        ("tf.function(autograph=False)", False),
        ("tape outside tf.function", False),
        ("keras fit", False),
    ],
)
def test_a_missing_gradient_is_a_staging_error_only_where_autograph_converts_the_tape(context, staging):
    entry = where("error-message.md#sparse-reduce-max-no-gradient")
    with pytest.raises(Exception, match="SparseReduceMax") as e:
        missing_gradient_contexts()[context]()
    assert isinstance(e.value, StagingError) == staging, f"{context}: {type(e.value).__name__}; {entry}"
    assert isinstance(e.value, LookupError) != staging, f"{context}: {type(e.value).__name__}; {entry}"


@pytest.mark.parametrize("op", ["Lu", "MaxPoolGradWithArgmax", "LRNGrad"])
@pytest.mark.parametrize("autograph", [True, False], ids=["tf.function", "tf.function(autograph=False)"])
def test_every_missing_gradient_lookup_error_is_wrapped_the_same_way(op, autograph):
    entry = where("error-message.md#sparse-reduce-max-no-gradient")
    square = tf.Variable([[4.0, 3.0], [6.0, 3.0]])
    x = tf.Variable(tf.random.stateless_normal([1, 4, 4, 1], seed=[1, 2]))
    layer = {
        "MaxPoolGradWithArgmax": lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[0],
        "LRNGrad": lambda x: tf.nn.lrn(x, depth_radius=1),
    }

    def step():
        if op == "Lu":
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.linalg.lu_solve(*tf.linalg.lu(square), tf.ones([2, 1])))
            return tape.gradient(loss, square)
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.reduce_sum(layer[op](x) ** 2)
            penalty = tf.reduce_sum(inner.gradient(y, x) ** 2)
        return outer.gradient(penalty, x)

    with pytest.raises(Exception, match=f"no entry for: {op}") as e:
        tf.function(step, autograph=autograph)()
    assert isinstance(e.value, StagingError) == autograph != isinstance(e.value, LookupError), entry


def test_autograph_keeps_a_not_implemented_error_from_a_gradient():
    entry = where("error-message.md#sparse-reduce-max-no-gradient")
    tall = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.linalg.qr(tall, full_matrices=True)[1])
        return tape.gradient(loss, tall)

    with pytest.raises(NotImplementedError, match="QrGrad not implemented") as e:
        step()
    assert not isinstance(e.value, StagingError), entry


class PlainError(Exception):  # Exception.__init__ itself
    pass


class SubclassOfValueError(ValueError):  # ValueError.__init__, and not in AutoGraph's list
    pass


@pytest.mark.parametrize(
    ("error", "kept"),
    [
        (KeyError, True),
        (RuntimeError, True),
        (PlainError, True),
        (tf.errors.InvalidArgumentError, True),
        (LookupError, False),
        (IndexError, False),
        (SubclassOfValueError, False),
    ],
)
def test_autograph_keeps_the_type_of_a_fixed_list_of_errors_and_wraps_the_others(error, kept):
    entry = where("error-message.md#sparse-reduce-max-no-gradient")

    @tf.function
    def step():
        tf.constant(1.0)
        if error is tf.errors.InvalidArgumentError:
            raise error(None, None, "raised inside")
        raise error("raised inside")

    with pytest.raises(Exception, match="raised inside") as e:
        step()
    assert isinstance(e.value, error) == kept != isinstance(e.value, StagingError), f"{type(e.value)}; {entry}"


def test_autograph_keeps_its_own_staging_error_as_it_is():
    """AutoGraph's own errors keep their type too (api.py): a StagingError raised inside is not wrapped again."""
    entry = where("error-message.md#sparse-reduce-max-no-gradient")

    @tf.function
    def step():
        tf.constant(1.0)
        raise StagingError(["raised inside"], "raised inside")

    with pytest.raises(StagingError, match="raised inside") as e:
        step()
    assert "raised inside" in str(e.value) and "StagingError" not in str(e.value.args[1:]), f"{e.value!r}; {entry}"


def test_sparse_reduce_max_does_not_compile_with_xla_and_the_segment_max_fix_does():
    entry = where("error-message.md#sparse-reduce-max-no-gradient")
    values = tf.Variable([-1.0, 2.0, 2.0])
    indices = tf.constant([[0, 0], [2, 1], [2, 2]], tf.int64)
    rows, n = indices[:, 0], 3

    @tf.function(jit_compile=True)
    def by_sparse():
        return tf.sparse.reduce_max(tf.sparse.SparseTensor(indices, values, [n, 3]), axis=1)

    @tf.function(jit_compile=True)
    def by_segment():
        with tf.GradientTape() as tape:
            m = tf.math.unsorted_segment_max(values, rows, n)
            fixed = tf.where(tf.math.unsorted_segment_sum(tf.ones_like(values), rows, n) > 0, m, 0.0)
        return fixed, tape.gradient(fixed, values)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations"):
        by_sparse()
    fixed, g = by_segment()
    assert fixed.numpy().tolist() == [-1.0, 0.0, 2.0] and g.numpy().tolist() == [1.0, 0.5, 0.5], entry


# error-message.md#qr-lu-no-gradient
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_full_qr_of_a_tall_matrix_and_lu_have_no_gradient(mode, wrap):
    entry = where("error-message.md#qr-lu-no-gradient")
    tall = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
    square = tf.Variable([[4.0, 3.0], [6.0, 3.0]])
    rhs = tf.constant([[1.0], [2.0]])

    def grad(source, f):
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(f())
            return tape.gradient(loss, source)

        return wrap(step)()

    with pytest.raises(
        (NotImplementedError, StagingError), match="QrGrad not implemented when nrows > ncols and full_matrices"
    ):
        grad(tall, lambda: tf.linalg.qr(tall, full_matrices=True)[1])
    with pytest.raises((LookupError, StagingError), match="no entry for: Lu"):
        grad(square, lambda: tf.linalg.lu_solve(*tf.linalg.lu(square), rhs))
    assert grad(tall, lambda: tf.linalg.qr(tall)[1]) is not None, entry
    assert grad(square, lambda: tf.linalg.solve(square, rhs)) is not None, entry


# error-message.md#lstsq-fast-false
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_lstsq_fast_false_has_no_gradient_and_pinv_gives_the_same(mode, wrap):
    entry = where("error-message.md#lstsq-fast-false")
    a = tf.Variable([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    b = tf.constant([[1.0], [2.0], [2.0]])

    def grad(solve):
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(solve())
            return tape.gradient(loss, a)

        return wrap(step)()

    with pytest.raises(ValueError, match="Gradient not defined for fast=False"):
        grad(lambda: tf.linalg.lstsq(a, b, fast=False))
    np.testing.assert_allclose(
        grad(lambda: tf.linalg.pinv(a) @ b).numpy(),
        grad(lambda: tf.linalg.lstsq(a, b)).numpy(),
        atol=1e-4,
        err_msg=entry,
    )


def test_pinv_at_a_rank_deficient_matrix_is_min_norm_with_a_rank_keeping_gradient_and_ridge_differs():
    entry = where("error-message.md#lstsq-fast-false")
    a0 = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]])  # rank 1
    b = tf.constant([[1.0], [2.0], [3.0]], tf.float64)
    a = tf.Variable(a0)
    with tf.GradientTape() as tape:
        x = tf.linalg.pinv(a) @ b
        loss = tf.reduce_sum(x)
    g = tape.gradient(loss, a).numpy()
    np.testing.assert_allclose(x.numpy(), [[1.0], [1.0]], atol=1e-9, err_msg=entry)  # min-norm: x1 = x2
    # the derivative of pinv with the rank held fixed (Golub and Pereyra), worked out for this a and b
    np.testing.assert_allclose(g, [[-1 / 2, -1 / 2], [-1 / 3, -1 / 3], [-1 / 6, -1 / 6]], atol=1e-9, err_msg=entry)

    def f(m):
        return float(tf.reduce_sum(tf.linalg.pinv(tf.constant(m)) @ b))

    u, v = np.ones((3, 1)), np.ones((2, 1))  # a0 = u v^T
    rng = np.random.default_rng(0)
    for _ in range(3):  # along a path that keeps the rank 1, a central difference matches the gradient
        du, dv, h = rng.normal(size=(3, 1)), rng.normal(size=(2, 1)), 1e-5
        fd = (f((u + h * du) @ (v + h * dv).T) - f((u - h * du) @ (v - h * dv).T)) / (2 * h)
        assert fd == pytest.approx(float(np.sum(g * (du @ v.T + u @ dv.T))), abs=1e-6), entry
    bump = rng.normal(size=(3, 2))  # a generic direction: the rank becomes 2
    size = [h * float(tf.reduce_max(tf.abs(tf.linalg.pinv(tf.constant(a0 + h * bump))))) for h in (1e-3, 1e-5)]
    assert size[1] == pytest.approx(size[0], rel=1e-2) and size[0] > 0.1, f"pinv not like 1/h: {size}; {entry}"
    c = tf.constant([[1.0], [-2.0]], tf.float64)  # a generic weighting of x (the sum above cancels the 1/h part)

    def weighted(m):
        return float(tf.reduce_sum(c * (tf.linalg.pinv(tf.constant(m)) @ b)))

    for h in (1e-3, 1e-4, 1e-5):  # neither difference converges: both grow like 1/h^2
        one_sided = (weighted(a0 + h * bump) - weighted(a0)) / h
        central = (weighted(a0 + h * bump) - weighted(a0 - h * bump)) / (2 * h)
        assert abs(one_sided) * h * h > 0.1 and abs(central) * h * h > 0.1, f"h={h}: {one_sided}, {central}; {entry}"
    ridge = tf.linalg.lstsq(a, b, l2_regularizer=0.1)
    assert np.max(np.abs(ridge.numpy() - x.numpy())) > 1e-3, f"{ridge}; {entry}"


# second-derivative.md#pool-lrn-second-order
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_second_derivative_of_pooling_and_lrn(mode, wrap):
    entry = where("second-derivative.md#pool-lrn-second-order")
    x = tf.random.stateless_normal([1, 4, 4, 3], seed=[1, 2])

    def second(f):
        def step():
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    y = tf.reduce_sum(f(x) ** 2)
                g = inner.gradient(y, x)
            return outer.gradient(g, x)

        return wrap(step)()

    assert second(lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID")) is not None, entry
    with pytest.raises((LookupError, StagingError), match="no entry for: MaxPoolGradWithArgmax"):
        second(lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[0])
    with pytest.raises((LookupError, StagingError), match="no entry for: LRNGrad"):
        second(lambda x: tf.nn.lrn(x, depth_radius=1))

    def lrn(x, r=1):
        squares = tf.pad(x**2, [[0, 0], [0, 0], [0, 0], [r, r]])
        return x / tf.sqrt(1.0 + sum(squares[..., i : i + x.shape[-1]] for i in range(2 * r + 1)))

    np.testing.assert_allclose(lrn(x).numpy(), tf.nn.lrn(x, depth_radius=1).numpy(), atol=1e-6, err_msg=entry)
    assert second(lrn) is not None, entry


# only-in-tf-function.md#jacobian-nested-cond-tf-function
def nested_cond(x):
    return tf.cond(x[0] > 1.0, lambda: x**2, lambda: tf.cond(x[0] > 0.0, lambda: x**4, lambda: x**3))


def one_cond(x):
    return tf.cond(x[0] > 0.0, lambda: x**2, lambda: x**3)


def cond_hessian(f, x, use_pfor):
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x))
        g = inner.gradient(y, x)
    return outer.jacobian(g, x, experimental_use_pfor=use_pfor)


def test_hessian_through_nested_cond_fails_in_tf_function_with_pfor_only():
    entry = where("only-in-tf-function.md#jacobian-nested-cond-tf-function")
    x = tf.constant([0.5])
    tf.get_logger().setLevel("CRITICAL")
    try:
        with pytest.raises(ValueError, match="Encountered an exception while vectorizing the jacobian computation"):
            tf.function(cond_hessian)(nested_cond, x, True)
    finally:
        tf.get_logger().setLevel("INFO")
    assert float(cond_hessian(nested_cond, x, True)[0, 0]) == 3.0, f"eager pfor; {entry}"
    assert float(tf.function(cond_hessian)(nested_cond, x, False)[0, 0]) == 3.0, f"without pfor; {entry}"
    assert float(tf.function(cond_hessian)(one_cond, x, True)[0, 0]) == 2.0, f"one tf.cond; {entry}"


# only-in-tf-function.md#custom-gradient-retrace-leak
def test_every_trace_of_a_custom_gradient_stays_alive():
    entry = where("only-in-tf-function.md#custom-gradient-retrace-leak")

    @tf.custom_gradient
    def square(x):
        return x * x, lambda dy: dy * 2 * x

    def plain(x):
        return x * x

    def alive_after(f, traces):
        gc.collect()
        before = sum(type(o).__name__ == "SymbolicTensor" for o in gc.get_objects())
        for n in range(traces):
            tf.function(f)(tf.constant(float(n)))
        gc.collect()
        return sum(type(o).__name__ == "SymbolicTensor" for o in gc.get_objects()) - before

    tf.get_logger().setLevel("ERROR")  # the retracing warning
    try:
        leaked_5, leaked_10, plain_10 = alive_after(square, 5), alive_after(square, 10), alive_after(plain, 10)
    finally:
        tf.get_logger().setLevel("INFO")
    assert leaked_10 == 2 * leaked_5 > 0, f"custom gradient traces: {leaked_5} after 5, {leaked_10} after 10; {entry}"
    assert plain_10 == 0, f"plain traces leave {plain_10}; {entry}"


# no-longer-happens.md#svd-repeated-singular-values and #eigh-repeated-eigenvalues
W = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


@pytest.mark.parametrize("decomposition", ["svd", "eigh"])
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_repeated_values_no_nan_right_for_values_zero_inside_the_block_of_a_diagonal_matrix(decomposition, mode, wrap):
    entry = where(
        "no-longer-happens.md#"
        + ("svd-repeated-singular-values" if decomposition == "svd" else "eigh-repeated-eigenvalues")
    )

    def grads(diagonal):
        a = tf.Variable(tf.linalg.diag(diagonal))

        def step():
            with tf.GradientTape(persistent=True) as tape:
                if decomposition == "svd":
                    s, u, v = tf.linalg.svd(a)
                    of_values = tf.reduce_sum(s)
                    rebuilt = u @ tf.linalg.diag(s) @ tf.transpose(v)
                else:
                    e, v = tf.linalg.eigh(a)
                    of_values = tf.reduce_sum(e**2)
                    rebuilt = v @ tf.linalg.diag(e) @ tf.transpose(v)
                weighted = tf.reduce_sum(W * rebuilt)
            return tape.gradient(of_values, a), tape.gradient(weighted, a)

        return wrap(step)()

    of_values, weighted = grads([1.0, 1.0, 2.0])
    expected = [1.0, 1.0, 1.0] if decomposition == "svd" else [2.0, 2.0, 4.0]
    assert not has_nan(of_values) and not has_nan(weighted), f"nan is back; {entry}"
    np.testing.assert_allclose(tf.linalg.diag_part(of_values).numpy(), expected, atol=1e-6, err_msg=entry)
    assert float(tf.reduce_max(tf.abs(weighted))) == 0.0, f"the block's gradient is no longer 0: {weighted}; {entry}"
    _, near = grads([1.0, 1.01, 2.0])
    assert float(tf.reduce_sum(near)) == pytest.approx(2.0, abs=1e-4), f"near the repeated value; {entry}"


@pytest.mark.parametrize("decomposition", ["svd", "eigh"])
def test_repeated_values_of_a_non_diagonal_matrix_lose_the_coupling_of_their_vectors_and_every_entry_is_off(
    decomposition,
):
    entry = where(
        "no-longer-happens.md#"
        + ("svd-repeated-singular-values" if decomposition == "svd" else "eigh-repeated-eigenvalues")
    )
    rng = np.random.default_rng(1)
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    q2, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    if decomposition == "svd":  # non-symmetric: a symmetric one can get vectors for which an entry stays right
        a = tf.Variable(q @ np.diag([1.0, 1.0, 2.0]) @ q2.T)
    else:
        a0 = q @ np.diag([1.0, 1.0, 2.0]) @ q.T
        a = tf.Variable((a0 + a0.T) / 2)
    w = W.numpy().astype(np.float64)
    pair = (1, 2) if decomposition == "svd" else (0, 1)  # svd: descending; eigh: ascending

    def gradient():
        with tf.GradientTape() as tape:
            if decomposition == "svd":
                s, left, right = tf.linalg.svd(a)
                rebuilt = left @ tf.linalg.diag(s) @ tf.transpose(right)
            else:
                e, left = tf.linalg.eigh(a)
                right = left
                rebuilt = left @ tf.linalg.diag(e) @ tf.transpose(left)
            weighted = tf.reduce_sum(tf.constant(w) * rebuilt)
        return tape.gradient(weighted, a), left, right

    g, left, right = (t.numpy() for t in gradient())
    g_jit = tf.function(gradient, jit_compile=True)()[0].numpy()  # other vectors, other wrong entries
    assert np.abs(g_jit - g).max() > 1e-3, f"{g_jit} vs {g}; {entry}"
    if decomposition == "svd":
        true, wrong, as_w = w, g, g
    else:  # eigh's gradient lives in the lower triangle: tril(w + w^T) - diag(w); g + g^T is 2w's counterpart
        true, wrong, as_w = np.tril(2 * w) - np.diag(np.diag(w)), np.tril(g), (g + g.T) / 2
    off = np.abs(wrong - true) > 1e-6  # a right entry is off by rounding only (1e-15)
    assert off.sum() == (9 if decomposition == "svd" else 6), f"{g}; {entry}"  # every entry (eigh: of the triangle)
    lost = left.T @ (w - as_w) @ right  # in the basis of the vectors
    coupling = left.T @ w @ right
    expected = np.zeros((3, 3))
    expected[pair], expected[pair[::-1]] = coupling[pair], coupling[pair[::-1]]
    np.testing.assert_allclose(lost, expected, atol=1e-9, err_msg=entry)
    assert abs(coupling[pair]) > 0.1, entry


def test_eigh_returns_the_gradient_of_sum_e2_in_the_lower_triangle():
    entry = where("no-longer-happens.md#eigh-repeated-eigenvalues")
    a0 = np.array([[2.0, 5.0, -1.0], [1.0, 2.0, 7.0], [0.0, 0.5, 3.0]])  # not symmetric: eigh reads the lower part
    a = tf.Variable(a0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.linalg.eigh(a)[0] ** 2)
    expected = np.tril(4.0 * a0) - np.diag(np.diag(2.0 * a0))  # 4 A_ij below the diagonal, 2 A_ii on it, 0 above
    np.testing.assert_allclose(tape.gradient(loss, a).numpy(), expected, atol=1e-9, err_msg=entry)


# no-longer-happens.md#sparse-xent-second-order
@pytest.mark.parametrize(("mode", "wrap"), MODES, ids=MODE_IDS)
def test_sparse_cross_entropy_has_a_second_derivative(mode, wrap):
    logits = tf.constant([[1.0, 0.5, -1.0]])

    def step():
        with tf.GradientTape() as outer:
            outer.watch(logits)
            with tf.GradientTape() as inner:
                inner.watch(logits)
                y = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0]), logits))
            g = inner.gradient(y, logits)
        return outer.jacobian(g, logits)[0, :, 0, :]

    p = tf.nn.softmax(logits)[0]
    closed = tf.linalg.diag(p) - p[:, None] * p[None, :]
    np.testing.assert_allclose(
        wrap(step)().numpy(), closed.numpy(), atol=1e-6, err_msg=where("no-longer-happens.md#sparse-xent-second-order")
    )


# no-longer-happens.md#old-gradient-errors-fixed
def test_segment_max_gather_nd_and_cond_twice_have_gradients():
    entry = where("no-longer-happens.md#old-gradient-errors-fixed")
    x = tf.Variable([1.0, 2.0, 3.0, 0.5, -0.3])
    with tf.GradientTape(persistent=True) as tape:
        seg_max = tf.math.segment_max(x, [0, 0, 0, 1, 2])
        picked = tf.gather_nd(x, [[1], [2]])
    assert tape.gradient(seg_max, x).numpy().tolist() == [0.0, 0.0, 1.0, 1.0, 1.0], entry
    assert tf.convert_to_tensor(tape.gradient(picked, x)).numpy().tolist() == [0.0, 1.0, 1.0, 0.0, 0.0], entry

    @tf.function
    def twice(v):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(v)
            y = tf.cond(v > 0.0, lambda: v * 5.0, lambda: v)
        return tape.gradient(y, v), tape.gradient(y, v)

    assert [float(g) for g in twice(tf.constant(2.0))] == [5.0, 5.0], entry
