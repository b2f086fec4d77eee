"""The recipes of docs/cookbook/missing-gradient.md, checked on TensorFlow itself.

Each built-in failure test names the section to rewrite when TensorFlow fixes it; each recipe test runs the page's
`recipe` section (not a copy) against its reference; the proofs are read from the snippets' real output.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import blocks, gradient, recipe, stdout_of
from tests.harness import ROOT

PAGE = "docs/cookbook/missing-gradient.md"
IMAGE = np.linspace(0.1, 0.9, 9).reshape(1, 3, 3, 1)


def penalty_gradient(resize, x, size=(5, 5)):
    """d/dx of |dD/dx|^2 for the critic D(x) = sum(sin(resize(x)))."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            critic = tf.reduce_sum(tf.sin(resize(x)))
        penalty = tf.reduce_sum(inner.gradient(critic, x) ** 2)
    return outer.gradient(penalty, x)


def matrix_of(method, size=(5, 5)):
    """L of the linear map resize (3x3 -> size), one column per basis image."""
    basis = tf.reshape(tf.eye(9), [9, 3, 3, 1])
    return tf.reshape(tf.image.resize(basis, size, method), [9, -1]).numpy().T.astype(np.float64)


def penalty_reference(method):
    L, x = matrix_of(method), IMAGE.reshape(9)
    y = L @ x
    return 2 * L.T @ (-np.sin(y) * (L @ (L.T @ np.cos(y))))


# tf.image.resize at second order (#resize-second-order)


def test_bilinear_second_order_is_none():
    x = tf.constant(IMAGE, tf.float32)
    got = penalty_gradient(lambda x: tf.image.resize(x, [5, 5], "bilinear"), x)
    assert got is None, (
        "the second-order gradient through tf.image.resize(method='bilinear') is no longer None: TensorFlow fixed "
        f"it (ResizeBilinearGrad was NotDifferentiable). Rewrite {PAGE}#resize-second-order (say from which release)"
    )


@pytest.mark.parametrize(
    ("method", "op"),
    [("nearest", "ResizeNearestNeighborGrad"), ("bicubic", "ResizeBicubicGrad"), ("lanczos3", "ScaleAndTranslateGrad")],
)
def test_other_methods_raise_lookuperror_at_second_order(method, op):
    x = tf.constant(IMAGE, tf.float32)
    with pytest.raises(LookupError, match=f"gradient registry has no entry for: {op}"):
        penalty_gradient(lambda x: tf.image.resize(x, [5, 5], method), x)
        pytest.fail(f"{op} has a gradient now: rewrite {PAGE}#resize-second-order (say from which release)")


def test_resize_outputs_float32_for_float64_input_except_nearest():
    x = tf.constant(IMAGE, tf.float64)
    assert tf.image.resize(x, [5, 5], "bilinear").dtype == tf.float32, f"update {PAGE}#resize-second-order-proof"
    assert tf.image.resize(x, [5, 5], "nearest").dtype == tf.float64, f"update {PAGE}#resize-second-order-proof"


def test_builtin_nearest_fails_under_xla_and_in_forward_mode_too():
    """The two rows the proof names as TensorFlow's, not the recipe's."""
    x = tf.constant(IMAGE, tf.float64)

    @tf.function(jit_compile=True)
    def first_order(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.sin(tf.image.resize(x, [5, 5], "nearest")))
        return tape.gradient(y, x)  # (without the sin, the gradient is a constant that XLA never sees)

    with pytest.raises(tf.errors.InvalidArgumentError, match="ResizeNearestNeighborGrad"):
        first_order(x)
    with pytest.raises(LookupError, match="ResizeNearestNeighborGrad"):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = tf.image.resize(x, [5, 5], "nearest")
        acc.jvp(y)


@pytest.mark.parametrize("method", ["bilinear", "nearest", "bicubic", "lanczos3"])
def test_resize_every_order_matches_the_matrix(method):
    resize_every_order = recipe("31_resize_every_order.py")["resize_every_order"]
    x = tf.constant(IMAGE, tf.float32)
    np.testing.assert_array_equal(resize_every_order(x, [5, 5], method), tf.image.resize(x, [5, 5], method))
    got = penalty_gradient(lambda x: resize_every_order(x, [5, 5], method), x).numpy().reshape(9)
    np.testing.assert_allclose(got, penalty_reference(method), rtol=1e-5, atol=1e-5)


def test_resize_every_order_third_order_in_float64_nearest():
    """'every order': the third derivative of sum(sin(resize(x))) along ones, against central differences of the
    second (float64, nearest keeps the dtype)."""
    resize_every_order = recipe("31_resize_every_order.py")["resize_every_order"]

    def second(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.reduce_sum(tf.sin(resize_every_order(x, [5, 5], "nearest")))
            g = tf.reduce_sum(t1.gradient(y, x))
        return t2.gradient(g, x)

    x = tf.constant(IMAGE, tf.float64)
    with tf.GradientTape() as t3:
        t3.watch(x)
        s = tf.reduce_sum(second(x))
    third = t3.gradient(s, x).numpy()
    h, ones = 1e-5, np.ones_like(IMAGE)
    diff = (tf.reduce_sum(second(x + h * ones)) - tf.reduce_sum(second(x - h * ones))).numpy() / (2 * h)
    np.testing.assert_allclose(third.sum(), diff, rtol=1e-6)


def test_resize_proof():
    out = stdout_of("31_resize_every_order.py")
    rows = blocks(out)[0]
    assert rows.pop("jit_compile order 1").startswith("MISMATCH InvalidArgumentError: Detected unsupported"), out
    assert rows.pop("forward mode order 1").startswith("MISMATCH LookupError: gradient registry has no entry"), out
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/31_resize_every_order.py: {rows}"
    assert "critic: SavedModel order 1: error" in out and "SavedModel order 1: error nan" not in out, out
    for method in ("bilinear", "bicubic", "lanczos3"):
        line = next(line for line in out.splitlines() if line.startswith(method))
        errors = [float(word.rstrip(",")) for word in line.split()[-5::2]]
        assert max(errors) < 1e-5, line


def test_resize_problem_and_alternatives():
    out = stdout_of("30_resize_second_order.py")
    assert "bilinear: reference" in out and "  second-order gradient: None" in out, out
    out = stdout_of("32_resize_alternatives.py")
    assert "UpSampling2D('bilinear'): second order None" in out, (
        f"keras' UpSampling2D(interpolation='bilinear') has a second derivative now: update "
        f"{PAGE}#resize-second-order-alternatives\n{out}"
    )
    assert "UpSampling2D('nearest'): second order [" in out, out
    assert "tf.repeat: same values as resize nearest x2: True" in out, out
    for method, antialias in [("bilinear", False), ("area", False)]:
        line = f"matmul form: largest difference from resize {method}, antialias={antialias}: "
        assert float(out.split(line)[1].split()[0]) < 1e-6, out
    assert "resize area, antialias=True" not in out, "area ignores antialias: one line for it is enough"
    matmul = out.split("  second order ")[-1].splitlines()[0]
    np.testing.assert_allclose(
        eval(matmul.replace(" ", ",").replace(",,", ",").replace("[,", "[")),  # noqa: S307
        penalty_reference("bilinear")[:3],
        atol=1e-4,
    )
    out = stdout_of("30_resize_second_order.py")
    assert "bilinear, antialias=True: LookupError: gradient registry has no entry for: ScaleAndTranslateGrad" in out, (
        out
    )
    assert "lanczos3, float64, first order: cannot compute ScaleAndTranslateGrad" in out, out


def first_order(x, method, antialias=False):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [5, 5], method, antialias=antialias)
    return tape.gradient(y, x)


SCALE_AND_TRANSLATE = [
    ("lanczos3", False),
    ("lanczos5", False),
    ("gaussian", False),
    ("mitchellcubic", False),
    ("bilinear", True),
    ("bicubic", True),
]


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float64])
@pytest.mark.parametrize(("method", "antialias"), SCALE_AND_TRANSLATE)
def test_builtin_first_order_of_scale_and_translate_is_float32_only(method, antialias, dtype):
    """Eager mode raises InvalidArgumentError; traced (tf.function, tf.gradients), TypeError."""
    assert first_order(tf.constant(IMAGE, tf.float32), method, antialias).dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute ScaleAndTranslateGrad"):
        first_order(tf.constant(IMAGE, dtype), method, antialias)
        pytest.fail(
            f"{method} (antialias={antialias}) has a {dtype.name} first-order gradient now: "
            f"update {PAGE}#resize-second-order-why (and .ru.md)"
        )

    def in_graph(x):
        return tf.gradients(tf.image.resize(x, [5, 5], method, antialias=antialias), x)[0]

    error = (
        f"Input 'original_image' of 'ScaleAndTranslateGrad' Op has type {dtype.name} "
        "that does not match type float32 of argument 'grads'"
    )
    for traced in (tf.function(lambda x: first_order(x, method, antialias)), tf.function(in_graph)):
        with pytest.raises(TypeError, match=re.escape(error)):
            traced(tf.constant(IMAGE, dtype))
            pytest.fail(
                f"traced, {method} (antialias={antialias}) has a {dtype.name} first-order gradient now: "
                f"update {PAGE}#resize-second-order-why (and .ru.md)"
            )


def test_builtin_lanczos3_first_order_in_float64_raises_typeerror_in_keras_fit():
    """#resize-second-order-why: Keras fit traces its train step, so it raises the TypeError of tf.function."""
    layer = tf.keras.layers.Lambda(lambda x: tf.image.resize(x, [5, 5], "lanczos3"), dtype="float64")
    scale = tf.keras.layers.Dense(1, dtype="float64")
    model = tf.keras.Sequential([tf.keras.Input((3, 3, 1), dtype="float64"), scale, layer])
    model.compile("sgd", "mse", jit_compile=False)
    with pytest.raises(TypeError, match="'ScaleAndTranslateGrad' Op has type float64 that does not match type float32"):
        model.fit(np.ones((1, 3, 3, 1)), np.zeros((1, 5, 5, 1)), verbose=0)
        pytest.fail(
            f"Keras fit through lanczos3 in float64 now trains: update {PAGE}#resize-second-order-why (and .ru.md)"
        )


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_builtin_bicubic_first_order_is_none_in_float16_and_bfloat16(dtype):
    assert first_order(tf.constant(IMAGE, dtype), "bicubic") is None, (
        f"bicubic has a {dtype.name} gradient now: update {PAGE}#resize-second-order-why (and .ru.md)"
    )


def test_area_ignores_antialias():
    """#resize-second-order-alternatives: one matrix form of area, with or without antialias."""
    rng = np.random.default_rng(1)
    for shape, size in [((2, 6, 9, 3), (3, 3)), ((1, 7, 5, 2), (3, 4)), ((1, 4, 4, 1), (9, 7))]:
        x = tf.constant(rng.normal(size=shape), tf.float32)
        np.testing.assert_array_equal(
            tf.image.resize(x, size, "area", antialias=True),
            tf.image.resize(x, size, "area"),
            err_msg=f"area now uses antialias: update {PAGE}#resize-second-order-alternatives (and .ru.md)",
        )


@pytest.mark.parametrize(
    ("method", "antialias", "dtype", "shape", "size"),
    [
        ("lanczos3", False, tf.float64, (2, 5, 6, 2), (7, 4)),
        ("bilinear", True, tf.float32, (2, 8, 8, 3), (3, 5)),
        ("lanczos3", True, tf.float64, (1, 8, 6, 2), (3, 4)),
        ("bicubic", True, tf.float32, (1, 4, 4, 1), (9, 7)),
        ("bicubic", False, tf.float16, (1, 4, 4, 1), (9, 7)),
        ("nearest", False, tf.float64, (2, 7, 6, 3), (3, 4)),
    ],
)
def test_resize_every_order_dtypes_antialias_batch_channels(method, antialias, dtype, shape, size):
    """Second order against the matrix L, per image and channel, downsampling and upsampling."""
    resize_every_order = recipe("31_resize_every_order.py")["resize_every_order"]
    rng = np.random.default_rng(3)
    x = tf.constant(rng.normal(size=shape), dtype)
    b, h, w, c = shape
    basis = tf.reshape(tf.eye(h * w), [h * w, h, w, 1])
    L = tf.reshape(tf.image.resize(basis, size, method, antialias=antialias), [h * w, -1]).numpy().T
    L = L.astype(np.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.cast(resize_every_order(x, size, method, antialias), dtype)
            critic = tf.reduce_sum(tf.sin(y))
        penalty = tf.reduce_sum(inner.gradient(critic, x) ** 2)
    g = outer.gradient(penalty, x)
    assert g.dtype == dtype
    tol = 1e-2 if dtype == tf.float16 else 1e-5
    for i in range(b):
        for j in range(c):
            v = x.numpy()[i, :, :, j].reshape(-1).astype(np.float64)
            y = L @ v
            want = 2 * L.T @ (-np.sin(y) * (L @ (L.T @ np.cos(y))))
            np.testing.assert_allclose(g.numpy()[i, :, :, j].reshape(-1), want, atol=tol * (1 + np.abs(want).max()))


def test_resize_forward_mode_fails_for_every_method():
    resize_every_order = recipe("31_resize_every_order.py")["resize_every_order"]
    x = tf.constant(IMAGE, tf.float32)

    def jvp(f):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = f(x)
        return acc.jvp(y)

    assert jvp(lambda x: tf.image.resize(x, [5, 5], "bilinear")) is None, f"update {PAGE}#resize-second-order-proof"
    with pytest.raises(ValueError, match="None"):
        jvp(lambda x: resize_every_order(x, [5, 5], "bilinear"))
    for method, op in [
        ("nearest", "ResizeNearestNeighborGrad"),
        ("bicubic", "ResizeBicubicGrad"),
        ("lanczos3", "ScaleAndTranslateGrad"),
    ]:
        for f in (tf.image.resize, resize_every_order):
            with pytest.raises(LookupError, match=op):
                jvp(lambda x, f=f, method=method: f(x, [5, 5], method))


@pytest.mark.parametrize(
    ("method", "antialias", "missing"),
    [
        ("bilinear", False, None),
        ("nearest", False, "ResizeNearestNeighborGrad"),
        ("bicubic", False, "ResizeBicubic"),
        ("lanczos3", False, "ScaleAndTranslate"),
        ("bilinear", True, "ScaleAndTranslate"),
    ],
)
def test_resize_every_order_under_xla_at_order_2(method, antialias, missing):
    """#resize-second-order-proof: under XLA only bilinear with antialias=False; the op XLA lacks for the others."""
    resize_every_order = recipe("31_resize_every_order.py")["resize_every_order"]
    x = tf.constant(IMAGE, tf.float32)
    compiled = tf.function(
        lambda x: penalty_gradient(lambda x: resize_every_order(x, [5, 5], method, antialias), x), jit_compile=True
    )
    if missing is not None:
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"No registered '{missing}' OpKernel"):
            compiled(x)
            pytest.fail(f"XLA compiles {method} (antialias={antialias}) now: update {PAGE}#resize-second-order-proof")
        return
    np.testing.assert_allclose(compiled(x).numpy().reshape(9), penalty_reference(method), atol=1e-5)


@pytest.mark.parametrize(
    ("method", "antialias", "missing"),
    [
        ("bicubic", False, "ResizeBicubic"),
        ("lanczos3", False, "ScaleAndTranslate"),
        ("bilinear", True, "ScaleAndTranslate"),
        ("area", False, "ResizeArea"),
    ],
)
def test_builtin_resize_forward_has_no_xla_kernel(method, antialias, missing):
    """#resize-second-order-proof: even the forward pass of these does not compile."""
    compiled = tf.function(lambda x: tf.image.resize(x, [5, 5], method, antialias=antialias), jit_compile=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"No registered '{missing}' OpKernel"):
        compiled(tf.constant(IMAGE, tf.float32))
        pytest.fail(
            f"XLA compiles resize {method} (antialias={antialias}) now: update {PAGE}#resize-second-order-proof"
        )
    plain = tf.function(lambda x: tf.image.resize(x, [5, 5], "bilinear"), jit_compile=True)
    plain(tf.constant(IMAGE, tf.float32))  # bilinear without antialias compiles


RELOAD_ORDER_2 = """import sys, numpy as np, tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
for name, x in [("resize", tf.constant(np.ones([1, 3, 3, 1]), tf.float64)), ("logm", tf.constant(np.eye(3) * 2, tf.complex128))]:
    try:  # (the error comes from inner.gradient, under the recording outer tape)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.math.real(getattr(loaded, name)(x)))
            g = inner.gradient(y, x)
            s = tf.reduce_sum(tf.math.real(g * g))
        outer.gradient(s, x)
        print(name, "order 2 works")
    except LookupError as e:
        print(f"{name} {type(e).__name__}: {str(e).split(' (')[0]}")
"""


def test_second_order_fails_after_a_savedmodel_reload(tmp_path):
    """#resize-second-order-proof: after a reload in a fresh process only order 1 works, for both recipes."""
    resize_every_order = recipe("31_resize_every_order.py")["resize_every_order"]
    logm = recipe("34_logm_every_order.py")["logm"]
    module = tf.Module()
    module.resize = tf.function(
        lambda x: tf.sin(resize_every_order(x, [5, 5], "nearest")),
        input_signature=[tf.TensorSpec([1, 3, 3, 1], tf.float64)],
    )
    module.logm = tf.function(lambda z: logm(z), input_signature=[tf.TensorSpec([3, 3], tf.complex128)])
    tf.saved_model.save(module, str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", RELOAD_ORDER_2, str(tmp_path)], capture_output=True, text=True, check=True
    )
    for name in ("resize", "logm"):
        assert f"{name} LookupError: No gradient defined for operation'IdentityN'" in done.stdout, (
            f"order 2 after a SavedModel reload changed: update {PAGE}#resize-second-order-proof\n{done.stdout}"
        )


# tf.linalg.logm (#logm-no-gradient)

A = np.array([[2.0, 0.3, 0.1], [0.2, 1.5, 0.4], [0.1, 0.1, 1.0]])


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_logm_has_no_gradient(dtype):
    x = tf.constant(A, dtype)
    with pytest.raises(LookupError, match="gradient registry has no entry for: MatrixLogarithm"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.math.real(tf.linalg.logm(x)))
        tape.gradient(y, x)
        pytest.fail(f"MatrixLogarithm has a gradient now: rewrite {PAGE}#logm-no-gradient (say from which release)")


def logm_loss_difference(a, w, h=1e-6):
    def loss(a):
        return float(tf.reduce_sum(w * tf.math.real(tf.linalg.logm(tf.complex(a, tf.zeros_like(a))))))

    out = np.zeros_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            e = np.zeros_like(a)
            e[i, j] = h
            out[i, j] = (loss(a + e) - loss(a - e)) / (2 * h)
    return out


def test_logm_graph_error_quotes_the_op_name_not_its_type():
    """#logm-no-gradient: tf.gradients' message names the op (here under a name scope), then its type."""

    @tf.function(autograph=False)
    def in_graph(a):
        with tf.name_scope("loss"):
            log = tf.linalg.logm(a)
        return tf.gradients(tf.math.real(tf.reduce_sum(log)), a)

    error = "No gradient defined for operation'loss/MatrixLogarithm' (op type: MatrixLogarithm)"
    with pytest.raises(LookupError, match=re.escape(error)):
        in_graph(tf.constant(A, tf.complex128))
        pytest.fail(f"MatrixLogarithm has a gradient in a graph now: rewrite {PAGE}#logm-no-gradient")


@pytest.mark.parametrize(
    "a",
    [A, np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.5]]), np.eye(3)],
    ids=["distinct", "jordan", "eye"],
)
def test_logm_recipe_matches_differences(a):
    logm = recipe("34_logm_every_order.py")["logm"]
    w = np.linspace(-1, 1, 9).reshape(3, 3)
    x = tf.constant(a, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(w * tf.math.real(logm(tf.complex(x, tf.zeros_like(x)))))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), logm_loss_difference(a, w), atol=1e-7)
    np.testing.assert_array_equal(logm(tf.constant(a, tf.complex128)), tf.linalg.logm(tf.constant(a, tf.complex128)))


def test_logm_recipe_batch_and_complex64():
    logm = recipe("34_logm_every_order.py")["logm"]
    x = tf.constant(np.stack([A, A.T]), tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.real(logm(x)))
    g = tape.gradient(y, x).numpy()
    want = logm_loss_difference(A, np.ones((3, 3)))
    np.testing.assert_allclose(g[0].real, want, atol=1e-4)
    np.testing.assert_allclose(g[1].real, want.T, atol=1e-4)


def test_logm_recipe_under_a_none_shape_signature():
    """n from tf.shape: under TensorSpec([None, None]) the gradient keeps the input's shape."""
    logm = recipe("34_logm_every_order.py")["logm"]
    w = np.linspace(-1, 1, 9).reshape(3, 3)

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def gradient(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.reduce_sum(w * tf.math.real(logm(tf.complex(a, tf.zeros_like(a)))))
        return tape.gradient(y, a)

    np.testing.assert_allclose(gradient(tf.constant(A)).numpy(), logm_loss_difference(A, w), atol=1e-7)


def test_logm_proof_and_alternatives():
    out = stdout_of("34_logm_every_order.py")
    rows = blocks(out)[0]
    assert rows.pop("jit_compile order 1").startswith("MISMATCH InvalidArgumentError: Detected unsupported"), out
    assert rows.pop("forward mode order 1").startswith("MISMATCH LookupError: gradient registry has no entry"), out
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/34_logm_every_order.py: {rows}"
    error = float(out.split("complex128 input, order 1: largest error ")[1].split()[0])
    assert error < 1e-7, out
    assert "LookupError: gradient registry has no entry for: MatrixLogarithm" in stdout_of("33_logm_no_gradient.py")
    out = stdout_of("35_logm_alternatives.py")
    assert "gradient [-0.4298 -0.2782 -0.0235], reference [-0.4298 -0.2782 -0.0235]" in out, out
    assert "gradient [-0.5  0.   0. ], reference [-0.5  -0.25  0.  ]" in out, (
        f"tf.linalg.eigh's gradient at a repeated eigenvalue changed: update {PAGE}#logm-no-gradient-alternatives\n{out}"
    )
    assert "eigh, two eigenvalues 1e-10 apart: values equal logm: True\n  gradient [-0.5   -0.125  0.   ]" in out, (
        f"tf.linalg.eigh's gradient near a repeated eigenvalue changed: update {PAGE}#logm-no-gradient-alternatives"
    )
    assert "trace(logm a) = 1.050472, log det a = 1.050472" in out, out
    error = "No gradient defined for operation'MatrixLogarithm' (op type: MatrixLogarithm)"
    assert f"in a graph, tf.gradients: {error}\n" in stdout_of("33_logm_no_gradient.py"), (
        f"update {PAGE}#logm-no-gradient (and .ru.md): it quotes {error!r}"
    )


def test_slogdet_phase_gradient_is_silently_zero_for_a_complex_matrix():
    """#logm-no-gradient-alternatives: only log|det A| has a gradient; angle(sign) gets zeros, though it moves."""
    z = tf.constant(A + 1j * np.array([[0.1, 0.2, 0.0], [0.0, -0.3, 0.1], [0.2, 0.0, 0.4]]))
    with tf.GradientTape() as tape:
        tape.watch(z)
        sign, _ = tf.linalg.slogdet(z)
        phase = tf.math.angle(sign)
    got = tape.gradient(phase, z)
    h, e = 1e-6, np.zeros((3, 3))
    e[0, 0] = h
    moved = (np.angle(np.linalg.det(z.numpy() + e)) - np.angle(np.linalg.det(z.numpy() - e))) / (2 * h)
    assert abs(moved) > 1e-3 and got is not None and np.all(got.numpy() == 0), (
        f"the gradient of angle(slogdet sign) is now {got}: update {PAGE}#logm-no-gradient-alternatives (and .ru.md)"
    )


# tf.image.resize(method="area") (#resize-area)

AREA_CASES = [
    ((4, 6), (3, 4)),
    ((4, 4), (2, 2)),
    ((6, 9), (3, 3)),
    ((3, 3), (5, 5)),
    ((7, 5), (2, 3)),
    ((2, 3), (7, 5)),
]


def area_matrix(n, m):
    """The 1-D area resize n -> m from the overlaps, float64 (independent of TensorFlow)."""
    s = n / m
    rows, cols = np.arange(m)[:, None], np.arange(n)[None, :]
    return np.maximum(np.minimum(cols + 1, (rows + 1) * s) - np.maximum(cols, rows * s), 0) / s


def area_L(n, size):
    return np.kron(area_matrix(n[0], size[0]), area_matrix(n[1], size[1]))


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float32, tf.float64])
def test_resize_area_has_no_gradient_at_first_order(dtype):
    x = tf.constant(IMAGE, dtype)
    assert tf.image.resize(x, [2, 2], "area").dtype == tf.float32, f"update {PAGE}#resize-area-why (and .ru.md)"
    with pytest.raises(LookupError, match="gradient registry has no entry for: ResizeArea"):
        gradient(lambda x: tf.image.resize(x, [2, 2], "area"), x)
        pytest.fail(
            f"ResizeArea has a gradient now ({dtype.name}): rewrite {PAGE}#resize-area (say from which release)"
        )


def test_resize_area_fails_traced_and_through_keras_resizing():
    import keras

    x = tf.constant(IMAGE, tf.float32)
    with pytest.raises(Exception, match="gradient registry has no entry for: ResizeArea"):
        tf.function(lambda x: gradient(lambda x: tf.image.resize(x, [2, 2], "area"), x))(x)
    with pytest.raises(LookupError, match=re.escape("(op type: ResizeArea)")):
        tf.function(lambda x: tf.gradients(tf.image.resize(x, [2, 2], "area"), x), autograph=False)(x)
    layer = keras.layers.Resizing(2, 2, interpolation="area")
    with pytest.raises(LookupError, match="ResizeArea"):
        gradient(lambda x: tf.reduce_sum(layer(x)), x)


@pytest.mark.parametrize(("n", "size"), AREA_CASES)
def test_area_transpose_is_a_scaled_area_resize_the_other_way(n, size):
    """#resize-area-why: the overlaps match TensorFlow's op, and L(n->m)^T = (m/n) L(m->n), per axis and in 2-D."""
    L, back = area_L(n, size), area_L(size, n)
    ratio = size[0] * size[1] / (n[0] * n[1])
    np.testing.assert_allclose(L.T, ratio * back, atol=1e-12)
    x = np.random.default_rng(0).normal(size=(1, *n, 1))
    np.testing.assert_allclose(tf.image.resize(x, size, "area").numpy().ravel(), L @ x.ravel(), atol=1e-6)


@pytest.mark.parametrize(("n", "size"), AREA_CASES)
def test_resize_area_recipe_order_1_and_2_match_the_matrix(n, size):
    resize_area = recipe("51_resize_area_every_order.py")["resize_area"]
    L = area_L(n, size)
    rng = np.random.default_rng(2)
    x = tf.constant(rng.normal(size=(1, *n, 1)), tf.float32)
    np.testing.assert_array_equal(resize_area(x, size), tf.image.resize(x, size, "area"))
    w = rng.normal(size=(1, *size, 1))
    np.testing.assert_allclose(
        gradient(lambda x: tf.reduce_sum(w * resize_area(x, size)), x).numpy().ravel(), L.T @ w.ravel(), atol=1e-5
    )
    v = x.numpy().ravel().astype(np.float64)
    want = 2 * L.T @ (-np.sin(L @ v) * (L @ (L.T @ np.cos(L @ v))))
    got = penalty_gradient(lambda x: resize_area(x, size), x).numpy().ravel()
    np.testing.assert_allclose(got, want, atol=1e-5 * (1 + np.abs(want).max()))


def test_resize_area_recipe_without_the_ratio_would_be_caught():
    """The test above can fail: a grad without m/n is off by that factor."""
    L = area_L((4, 6), (3, 4))
    assert np.abs(L.T - area_L((3, 4), (4, 6))).max() > 0.1


def test_resize_area_recipe_third_order_against_a_float64_matrix_form():
    """'every order': the third derivative of sum(sin(resize(x))) along ones, against the same through L in float64."""
    resize_area = recipe("51_resize_area_every_order.py")["resize_area"]
    L = tf.constant(area_L((4, 6), (3, 4)))

    def third(resize, x):
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.reduce_sum(tf.sin(tf.cast(resize(x), tf.float64)))
                g1 = tf.reduce_sum(t1.gradient(y, x))
            g2 = tf.reduce_sum(t2.gradient(g1, x))
        return t3.gradient(g2, x).numpy().ravel()

    x = tf.constant(np.linspace(0.1, 0.9, 24).reshape(1, 4, 6, 1), tf.float64)
    got = third(lambda x: resize_area(x, [3, 4]), x)
    want = third(lambda x: tf.linalg.matvec(L, tf.reshape(x, [-1])), x)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_resize_area_recipe_batch_channels_rank_3_and_none_shapes():
    resize_area = recipe("51_resize_area_every_order.py")["resize_area"]
    rng = np.random.default_rng(4)
    L = area_L((7, 5), (3, 2))
    x = tf.constant(rng.normal(size=(2, 7, 5, 3)), tf.float64)
    w = rng.normal(size=(2, 3, 2, 3))
    spec = tf.TensorSpec([None, None, None, 3], tf.float64)
    traced = tf.function(
        lambda x: gradient(lambda x: tf.reduce_sum(w * resize_area(x, [3, 2])), x), input_signature=[spec]
    )
    for g in (gradient(lambda x: tf.reduce_sum(w * resize_area(x, [3, 2])), x), traced(x)):
        assert g.dtype == tf.float64
        for i in range(2):
            for c in range(3):
                np.testing.assert_allclose(g.numpy()[i, :, :, c].ravel(), L.T @ w[i, :, :, c].ravel(), atol=1e-5)
    single = tf.constant(rng.normal(size=(7, 5, 1)), tf.float32)
    g = gradient(lambda x: tf.reduce_sum(w[0, :, :, :1] * resize_area(x, [3, 2])), single)
    np.testing.assert_allclose(g.numpy().ravel(), L.T @ w[0, :, :, 0].ravel(), atol=1e-5)


def test_resize_area_recipe_fails_under_xla_and_in_forward_mode_like_the_op():
    """#resize-area-proof: the two failing rows are ResizeArea's own."""
    resize_area = recipe("51_resize_area_every_order.py")["resize_area"]
    x = tf.constant(IMAGE, tf.float32)
    for f in (lambda x: tf.image.resize(x, [2, 2], "area"), lambda x: resize_area(x, [2, 2])):
        with pytest.raises(tf.errors.InvalidArgumentError, match="ResizeArea"):
            tf.function(f, jit_compile=True)(x)
            pytest.fail(f"XLA compiles ResizeArea now: update {PAGE}#resize-area-proof (and .ru.md)")
        with pytest.raises(LookupError, match="gradient registry has no entry for: ResizeArea"):
            with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
                y = f(x)
            acc.jvp(y)


def test_resize_area_problem_proof_and_alternatives():
    out = stdout_of("50_resize_area_no_gradient.py")
    assert "L x is resize area (to float32 rounding): True" in out, out
    for dtype in ("float16", "bfloat16", "float32", "float64"):
        assert f"{dtype} in, float32 out: LookupError: gradient registry has no entry for: ResizeArea" in out, out
    assert "keras Resizing(interpolation='area'): LookupError: gradient registry has no entry for: ResizeArea" in out
    assert "in a graph, tf.gradients: No gradient defined for operation'resize/ResizeArea' (op type: ResizeArea)" in out
    assert "you may insert `tf.stop_gradient`" in out, f"the graph message no longer suggests stop_gradient: {PAGE}"
    out = stdout_of("51_resize_area_every_order.py")
    rows = blocks(out)[0]
    assert rows.pop("jit_compile order 1").startswith("MISMATCH InvalidArgumentError: Detected unsupported"), out
    assert rows.pop("forward mode order 1").startswith("MISMATCH LookupError: gradient registry has no entry"), out
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/51_resize_area_every_order.py: {rows}"
    line = next(line for line in out.splitlines() if line.startswith("order 2 (float32)"))
    assert max(float(word.rstrip(",")) for word in line.split()[-5::2]) < 1e-5, line
    out = stdout_of("52_resize_area_alternatives.py")
    reference = out.split("reference second order ")[1].splitlines()[0]
    assert out.count(f"  second order {reference}") == 2, out
    assert out.count("same values as resize area: True") == 2, out
    assert "tf.stop_gradient around resize area: gradient None" in out, out


@pytest.mark.parametrize(("shape", "k"), [((1, 4, 6, 1), 2), ((2, 9, 6, 3), 3), ((1, 8, 12, 2), 4)])
def test_avg_pool2d_is_area_for_integer_factors(shape, k):
    """#resize-area-alternatives: the same values for any integer factor, not only 2."""
    x = tf.constant(np.random.default_rng(5).normal(size=shape), tf.float32)
    pooled = tf.nn.avg_pool2d(x, ksize=k, strides=k, padding="VALID")
    np.testing.assert_allclose(pooled, tf.image.resize(x, [shape[1] // k, shape[2] // k], "area"), atol=1e-6)


# ImageProjectiveTransformV3 (#projective-transform)

SHAPE = (1, 4, 5, 1)
NUMBERS = [0.95, -0.3, 1.2, 0.3, 0.95, -0.4, 0.01, 0.02]  # a rotation with perspective


def projective_op(image, numbers, fill_mode="CONSTANT"):
    return tf.raw_ops.ImageProjectiveTransformV3(
        images=image,
        transforms=tf.cast(numbers, tf.float32),
        output_shape=tf.shape(image)[1:3],
        fill_value=0.0,
        interpolation="BILINEAR",
        fill_mode=fill_mode,
    )


def exact_image_gradient(f, image, dy):
    """f is linear in the image: a unit step of one pixel gives its derivative exactly."""
    base, n = f(image), int(np.prod(image.shape))
    steps = [tf.reshape(tf.one_hot(i, n, dtype=image.dtype), image.shape) for i in range(n)]
    return np.array([float(tf.reduce_sum(dy * (f(image + s) - base))) for s in steps]).reshape(image.shape)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_projective_transform_has_no_gradient_in_transforms(dtype):
    image = tf.constant(np.random.default_rng(0).uniform(size=SHAPE), dtype)
    numbers = tf.constant([NUMBERS], tf.float32)
    with tf.GradientTape() as tape:
        tape.watch([image, numbers])
        y = projective_op(image, numbers)
    d_image, d_numbers = tape.gradient(y, [image, numbers])
    assert d_numbers is None, f"ImageProjectiveTransformV3 has a gradient in transforms now ({d_numbers}): rewrite " + (
        f"{PAGE}#projective-transform (and .ru.md; say from which release) and its snippets"
    )
    assert d_image is not None


def test_projective_transform_image_gradient_is_wrong_for_a_rotation_and_right_for_a_shift():
    rng = np.random.default_rng(0)
    image, dy = (tf.constant(rng.uniform(size=SHAPE)) for _ in range(2))
    for numbers, wrong in ([NUMBERS, True], [[1, 0, -2, 0, 1, 1, 0, 0], False]):  # a whole-pixel shift
        numbers = tf.constant([numbers], tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(image)
            y = projective_op(image, numbers)
        got = tape.gradient(y, image, output_gradients=dy).numpy()
        exact = exact_image_gradient(lambda im, n=numbers: projective_op(im, n), image, dy)
        error = np.abs(got - exact).max()
        if wrong:
            assert error > 0.05, (
                f"ImageProjectiveTransformV3's image gradient is the true adjoint now (error {error}): "
                f"TensorFlow merged PR#127618 or similar; rewrite {PAGE}#projective-transform-why"
            )
        else:
            assert error < 1e-6, f"{PAGE}#projective-transform-why says a whole-pixel shift is exact: error {error}"


def test_projective_transform_has_no_xla_kernel():
    image = tf.constant(np.ones(SHAPE, np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="unsupported operations"):
        tf.function(projective_op, jit_compile=True)(image, tf.constant([NUMBERS]))


@pytest.mark.parametrize("fill_mode", ["CONSTANT", "REFLECT", "NEAREST"])
def test_warp_matches_the_op_and_the_recipe_gradient_is_exact(fill_mode):
    ns = recipe("95_projective_transform_gradient.py")
    rng = np.random.default_rng(3)
    image = tf.constant(rng.uniform(size=(2, 5, 6, 2)))
    dy = tf.constant(rng.uniform(size=(2, 5, 6, 2)))
    numbers = tf.constant(  # a batch of two, no pixel read on a pixel line (a kink); the second reads far outside
        [[1.31, 0.41, -2.47, -0.19, 1.43, -1.07, 0.031, -0.017], [0.71, 0.13, 3.07, -0.29, 0.83, 2.21, 0.004, 0.002]],
        tf.float64,
    )
    gap = np.abs(projective_op(image, numbers, fill_mode) - ns["warp"](image, numbers, fill_mode)).max()
    assert gap < 1e-6, f"warp differs from ImageProjectiveTransformV3 ({fill_mode}) by {gap}"
    with tf.GradientTape() as tape:
        tape.watch([image, numbers])
        y = ns["projective_transform"](image, numbers, fill_mode)
    d_image, d_numbers = tape.gradient(y, [image, numbers], output_gradients=dy)
    np.testing.assert_allclose(y, projective_op(image, numbers, fill_mode), rtol=0, atol=0)
    exact = exact_image_gradient(lambda im: ns["warp"](im, numbers, fill_mode), image, dy)
    np.testing.assert_allclose(d_image, exact, atol=1e-12)
    h, e = 1e-6, np.eye(16).reshape(16, 2, 8)
    want = [
        float(
            tf.reduce_sum(
                dy * (ns["warp"](image, numbers + h * d, fill_mode) - ns["warp"](image, numbers - h * d, fill_mode))
            )
        )
        / (2 * h)
        for d in e
    ]
    np.testing.assert_allclose(d_numbers.numpy().ravel(), want, rtol=1e-6, atol=1e-7)


def test_projective_transform_proof():
    out = stdout_of("95_projective_transform_gradient.py")
    (rows,) = blocks(out)[:1]
    fails = {k: v for k, v in rows.items() if v != "OK"}
    assert set(fails) == {"jit_compile order 1", "forward mode order 1"}, f"95_projective_transform_gradient.py: {rows}"
    assert "InvalidArgumentError" in fails["jit_compile order 1"], fails
    for fill_mode in ("REFLECT", "NEAREST"):
        line = re.search(rf"^{fill_mode}: warp - the op (\S+); eager order 1: error (\S+)$", out, re.M)
        assert line and float(line[1]) < 1e-6 and float(line[2]) < 1e-8, out
    problem = stdout_of("94_projective_transform_no_gradient.py")
    assert "d/d transforms: None\nkeras.ops.image.affine_transform, d/d transform: None\n" in problem, problem
    alternatives = stdout_of("96_projective_transform_alternatives.py")
    assert re.search(r"warp under jit_compile - eager: \d\.\de-1\d", alternatives), alternatives
    forward, reverse = re.search(r"warp, forward mode (\S+), reverse mode (\S+)", alternatives).groups()
    assert forward == reverse, alternatives


def test_alternatives_warp_is_the_recipes_warp():
    """Snippet 96 runs alone, so it holds a copy of _map and warp: the copy must not drift."""

    def code(name):
        text = (ROOT / "snippets/cookbook" / name).read_text(encoding="utf-8")
        return text[text.index("def _map(") : text.index("\n\n\n", text.index("def warp("))]

    assert code("96_projective_transform_alternatives.py") == code("95_projective_transform_gradient.py"), (
        "snippets/cookbook/96_projective_transform_alternatives.py: copy _map and warp from 95 again"
    )


# tf.image.crop_and_resize at second order (#crop-and-resize)

CROP_BOXES = [[0.1, 0.2, 0.8, 0.9], [-0.15, 0.3, 0.55, 1.2]]  # the second reaches outside the image


def _crop_penalty(image, boxes, source):
    with tf.GradientTape() as outer:
        outer.watch(source)
        with tf.GradientTape() as inner:
            inner.watch(source)
            y = tf.reduce_sum(tf.sin(tf.image.crop_and_resize(image, boxes, [0, 0], [3, 4])))
        penalty = tf.reduce_sum(inner.gradient(y, source) ** 2)
    return outer.gradient(penalty, source)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
@pytest.mark.parametrize("wrt", ["image", "boxes"])
def test_crop_and_resize_has_no_second_order(dtype, wrt):
    image = tf.constant(np.random.default_rng(0).uniform(size=(1, 5, 5, 1)), dtype)
    boxes = tf.constant(CROP_BOXES, tf.float32)
    op = "CropAndResizeGradImage" if wrt == "image" else "CropAndResizeGradBoxes"
    with pytest.raises(LookupError, match=op):
        _crop_penalty(image, boxes, image if wrt == "image" else boxes)
        pytest.fail(
            f"crop_and_resize has a second derivative in {wrt} now ({dtype.name}): rewrite "
            f"{PAGE}#crop-and-resize (and .ru.md; say from which release) and its snippets"
        )


def test_crop_and_resize_first_order_dtypes_and_no_xla_or_forward_mode():
    image = tf.constant(np.ones((1, 5, 5, 1)))
    boxes = tf.constant(CROP_BOXES, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch([image, boxes])
        y = tf.image.crop_and_resize(image, boxes, [0, 0], [3, 4])
    d_image, d_boxes = tape.gradient(y, [image, boxes])
    assert y.dtype == tf.float32 and d_image.dtype == tf.float64 and d_boxes.dtype == tf.float32, (
        f"{PAGE}#crop-and-resize-problem: output {y.dtype}, image gradient {d_image.dtype}"
    )
    with pytest.raises(ValueError):  # boxes take float32 only
        tf.image.crop_and_resize(image, tf.constant(CROP_BOXES, tf.float64), [0, 0], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="unsupported operations"):
        tf.function(lambda x: tf.image.crop_and_resize(x, boxes, [0, 0], [3, 4]), jit_compile=True)(image)
    with pytest.raises(LookupError, match="CropAndResizeGradBoxes"):
        with tf.autodiff.ForwardAccumulator(image, tf.ones_like(image)) as acc:
            y = tf.image.crop_and_resize(image, boxes, [0, 0], [3, 4])
        acc.jvp(y)


def test_crop_sample_matches_the_kernel_and_the_recipe_gradient_is_exact():
    ns = recipe("98_crop_and_resize_every_order.py")
    rng = np.random.default_rng(3)
    image = tf.constant(rng.uniform(size=(2, 6, 7, 2)))  # a batch of two, two channels, three boxes
    boxes = tf.constant(
        [[0.13, 0.07, 0.71, 0.83], [-0.21, 0.33, 0.58, 1.17], [0.43, 0.61, 0.43, 0.61]], tf.float64
    )  # the third: a point, read 3 x 4 times
    indices, size = tf.constant([1, 0, 1]), [3, 4]
    dy = tf.constant(rng.uniform(size=(3, 3, 4, 2)))
    for extrapolation in (0.0, 0.5):
        kernel = tf.image.crop_and_resize(
            image, tf.cast(boxes, tf.float32), indices, size, extrapolation_value=extrapolation
        )
        sampled = ns["sample"](image, boxes, indices, size, extrapolation)
        assert np.abs(kernel.numpy() - sampled).max() < 1e-6, "sample differs from the CropAndResize kernel"
        with tf.GradientTape() as tape:
            tape.watch([image, boxes])
            y = ns["crop_and_resize"](image, boxes, indices, size, extrapolation)
        d_image, d_boxes = tape.gradient(y, [image, boxes], output_gradients=tf.cast(dy, tf.float32))
        np.testing.assert_array_equal(y, kernel)
        h = 1e-6
        want = []
        for i in range(12):
            step = tf.reshape(tf.one_hot(i, 12, dtype=tf.float64), [3, 4]) * h
            ends = [ns["sample"](image, boxes + s * step, indices, size, extrapolation) for s in (1, -1)]
            want.append(
                float(tf.reduce_sum(tf.cast(tf.cast(dy, tf.float32), tf.float64) * (ends[0] - ends[1]))) / (2 * h)
            )
        np.testing.assert_allclose(d_boxes.numpy().ravel(), want, rtol=1e-6, atol=1e-7)
        # the image gradient is L^T dy: the kernel's own first-order gradient
        with tf.GradientTape() as tape:
            tape.watch(image)
            y = tf.image.crop_and_resize(image, tf.cast(boxes, tf.float32), indices, size)
        builtin = tape.gradient(y, image, output_gradients=tf.cast(dy, tf.float32))
        np.testing.assert_allclose(d_image, builtin, atol=1e-6)


def test_crop_sample_needs_more_digits_than_float16_for_its_grid():
    """The recipe section says to give sample a float16 image as float32: on a 200 x 200 map its grid of points in
    float16 is off the kernel's by a visible amount, in float32 not."""
    sample = recipe("98_crop_and_resize_every_order.py")["sample"]
    image = np.random.default_rng(5).uniform(size=(1, 200, 200, 1))
    boxes = tf.constant([[0.113, 0.271, 0.887, 0.953]])
    kernel = tf.image.crop_and_resize(image.astype(np.float32), boxes, [0], [7, 7]).numpy()
    off = {
        dtype: float(np.abs(sample(tf.constant(image, dtype), boxes, tf.constant([0]), [7, 7]).numpy() - kernel).max())
        for dtype in (tf.float16, tf.float32)
    }
    assert off[tf.float16] > 1e-2 and off[tf.float32] < 1e-4, (
        f"sample vs the kernel, float16 and float32 image: {off}; update {PAGE}#crop-and-resize-recipe"
    )


def test_crop_and_resize_proof():
    out = stdout_of("98_crop_and_resize_every_order.py")
    (rows,) = blocks(out)[:1]
    fails = {k: v for k, v in rows.items() if v != "OK"}
    assert set(fails) == {"jit_compile order 1", "forward mode order 1"}, f"98_crop_and_resize_every_order.py: {rows}"
    assert "InvalidArgumentError" in fails["jit_compile order 1"], fails
    maml = re.search(r"order 2 in x: error (\S+)$", out, re.M)
    assert maml and float(maml[1]) < 1e-5, out
    problem = stdout_of("97_crop_and_resize_second_order.py")
    for op in ("CropAndResizeGradImage", "CropAndResizeGradBoxes"):
        assert f"LookupError: gradient registry has no entry for: {op}\n" in problem, problem
    alternatives = stdout_of("99_crop_and_resize_alternatives.py")
    forward, reverse = re.search(r"sample, forward mode (\S+), reverse mode (\S+)", alternatives).groups()
    assert forward == reverse, alternatives


def test_alternatives_sample_is_the_recipes_sample():
    """Snippet 99 runs alone, so it holds a copy of sample: the copy must not drift."""

    def code(name):
        text = (ROOT / "snippets/cookbook" / name).read_text(encoding="utf-8")
        return text[text.index("def sample(") : text.index("\n\n\n", text.index("def sample("))]

    assert code("99_crop_and_resize_alternatives.py") == code("98_crop_and_resize_every_order.py"), (
        "snippets/cookbook/99_crop_and_resize_alternatives.py: copy sample from 98 again"
    )
