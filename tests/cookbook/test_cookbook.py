"""The cookbook's recipes (docs/cookbook/), checked on TensorFlow itself.

Each recipe tells two halves of a story, and a TensorFlow release that changes either fails here: the built-in
gradient fails (a nan, a None, zeros, a conjugate), and the recipe's custom gradient matches its reference. The
recipe code is not copied: it is the `recipe` section of the snippet the page shows, executed here. The proofs the
pages print (every context, the copyable check) are checked from the snippets' real output.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import tensorflow as tf

from tests.harness import ROOT, run_snippet

DIR = "snippets/cookbook"
SECTION = re.compile(r"# --8<-- \[start:recipe\]\n(.*?)# --8<-- \[end:recipe\]", re.S)


def recipe(name: str) -> dict:
    """The functions of a snippet's recipe section, defined in a fresh namespace."""
    path = ROOT / DIR / name
    match = SECTION.search(path.read_text(encoding="utf-8"))
    assert match, f"{DIR}/{name} has no '# --8<-- [start:recipe]' ... '[end:recipe]' section"
    namespace = {"tf": tf, "np": np}
    exec(compile(match[1], str(path), "exec"), namespace)  # noqa: S102 -- our own snippet
    return namespace


def stdout_of(name: str) -> str:
    result = run_snippet(f"{DIR}/{name}")
    assert result.returncode == 0, f"{DIR}/{name} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return result.stdout


def gradient(f, x, **kwargs):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, **kwargs)


def second_derivative(f, x):
    """The first and the second derivative of f at x, with nested tapes (eager)."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        first = gradient(f, x)
    return first, outer.gradient(first, x)


OUT_OF_SCOPE = "docs/errors/error-message.md#grad-calls-custom-gradient-out-of-scope"


def assert_order_2_with_tapes_outside_matches_eager(f, x, where: str) -> None:
    """Nested tapes outside a tf.function give the eager second derivative of sum(f(x)): the recipe's grad calls its
    custom-gradient function on tf.identity of its input, not on the input itself (OUT_OF_SCOPE)."""
    total = lambda v: tf.reduce_sum(f(v))  # noqa: E731
    want = second_derivative(total, x)[1].numpy()
    try:
        got = second_derivative(tf.function(total, autograph=False), x)[1].numpy()
    except TypeError as e:
        pytest.fail(f"{where}: order 2, tapes outside a tf.function, raises {str(e).splitlines()[0]} ({OUT_OF_SCOPE})")
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=f"{where}: tapes outside vs eager")


def central_difference(f, x, h=1e-6):
    x = np.asarray(x, dtype=np.float64)
    return np.array([(f(x + d) - f(x - d)) / (2 * h) for d in h * np.eye(len(x))])


def check_rows(out: str) -> dict[str, str]:
    """'<context> order <n>' -> 'OK' or 'MISMATCH ...', per block of the copyable check (last block wins)."""
    rows = {}
    for line in out.splitlines():
        match = re.match(r"\s+(.+?)\s+order (\d): error \S+(?: \S+)?\s+(OK|MISMATCH.*)$", line)
        if match:
            rows[f"{match[1].strip()} order {match[2]}"] = match[3]
    return rows


def blocks(out: str) -> list[dict[str, str]]:
    """The rows of each check_gradient call, in order (a block starts at a line without indentation)."""
    parts = re.split(r"^(?=\S)", out, flags=re.M)
    return [check_rows(part) for part in parts if check_rows(part)]


# reduce_std (docs/cookbook/numerical-instability.md#reduce-std-nan)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
@pytest.mark.parametrize("values", [[3.0, 3.0, 3.0], [0.7]])
def test_reduce_std_gradient_is_nan_at_a_constant_input(values, dtype):
    g = gradient(tf.math.reduce_std, tf.constant(values, dtype)).numpy()
    assert np.isnan(g).all(), (
        f"tf.math.reduce_std's gradient at {values} ({dtype.name}) is {g}, no longer nan: TensorFlow fixed it. "
        "Rewrite docs/cookbook/numerical-instability.md#reduce-std-nan (say from which release) and its snippets"
    )


def test_keras_std_is_nan_too():
    import keras

    g = gradient(keras.ops.std, tf.constant([3.0, 3.0, 3.0])).numpy()
    assert np.isnan(g).all(), f"keras.ops.std's gradient at a constant input is {g}, no longer nan"


def test_safe_std_is_zero_at_a_constant_input_and_the_true_gradient_elsewhere():
    safe_std = recipe("02_safe_std.py")["safe_std"]
    # [0.1] * 3 and [0.3] * 7: the mean is not exact, reduce_std is about 1e-17, not 0 (issue 23)
    for values in ([3.0, 3.0, 3.0], [0.7], [0.1] * 3, [0.3] * 7):
        for dtype in (tf.float32, tf.float64):
            x = tf.constant(values, dtype)
            g = gradient(safe_std, x).numpy()
            assert (g == 0).all(), f"safe_std's gradient at {values} ({dtype.name}) is {g}, not 0"
            assert safe_std(x).numpy() == 0, f"safe_std at {values} ({dtype.name}) is {safe_std(x).numpy()}, not 0"
    x = [1.0, 2.0, 4.0]
    g = gradient(safe_std, tf.constant(x, tf.float64)).numpy()
    np.testing.assert_allclose(g, central_difference(np.std, x), rtol=1e-7)
    np.testing.assert_allclose(g, gradient(tf.math.reduce_std, tf.constant(x, tf.float64)).numpy(), rtol=1e-12)


def test_std_alternatives():
    out = stdout_of("03_std_alternatives.py")
    assert "sqrt(var + eps) at [3.0, 3.0, 3.0]: std 0.001000, gradient [0. 0. 0.]" in out, out
    assert "double where at [3.0, 3.0, 3.0]: std 0.000000, gradient [0. 0. 0.]" in out, out
    assert "double where at [0.1, 0.1, 0.1]: std 0.000000, gradient [0. 0. 0.]" in out, out


def test_reduce_std_at_a_constant_input_whose_mean_is_not_exact():
    out = stdout_of("01_reduce_std_nan.py")
    assert "x = [0.1, 0.1, 0.1]: reference [0. 0. 0.]\n  float32: std 0, gradient [nan nan nan]\n" in out, out
    assert "  float64: std 1.388e-17, gradient [0. 0. 0.]\n" in out, (
        f"{DIR}/01_reduce_std_nan.py at [0.1] * 3 in float64 changed; update "
        f"docs/cookbook/numerical-instability.md#reduce-std-nan (and .ru.md):\n{out}"
    )


def test_safe_std_proof():
    first, constant, inexact = blocks(stdout_of("02_safe_std.py"))[:3]
    assert set(first.values()) == {"OK"}, f"{DIR}/02_safe_std.py at [1, 2, 4]: {first}"
    # forward mode is OK too: the forward value's tf.where passes the tangent of the 0 branch
    assert set(constant.values()) == {"OK"}, f"{DIR}/02_safe_std.py at [3] * 3, [-1] * 3, [0.1] * 3: {constant}"
    assert set(inexact.values()) == {"OK"}, f"{DIR}/02_safe_std.py at [0.3] * 7: {inexact}"
    reloaded = stdout_of("02_safe_std.py").split("in a fresh process:")[1].strip()
    assert reloaded.startswith("safe_std: SavedModel order 1:") and reloaded.endswith("OK"), reloaded


def test_safe_std_sigma_from_the_closure_differs_under_jit_and_around_a_tf_function():
    """docs/cookbook/numerical-instability.md#reduce-std-nan-recipe: where grad takes sigma from."""
    out = stdout_of("55_safe_std_from_the_closure.py")
    page = "docs/cookbook/numerical-instability.md#reduce-std-nan-recipe (and .ru.md)"
    same = ("eager", "tapes inside tf.function", "tf.gradients")
    jit, around = "tapes inside jit_compile", "tapes around tf.function(f)"
    for block in out.split("second derivative at ")[1:]:
        point, *lines = block.strip().splitlines()
        rows = {(line[2:10].strip(), line[11:38].strip()): line[38:].strip() for line in lines}
        assert len(rows) == 15, f"{point}: the rows changed shape: {rows}; {page}"
        recipe_rows = {rows["recipe", c] for c in (*same, jit, around)}
        assert len(recipe_rows) == 1, f"{point} the recipe's second derivative differs between contexts: {rows}; {page}"
        (want,) = recipe_rows
        for name in ("x itself", "closure"):
            for context in same:
                assert rows[name, context] == want, (
                    f"{point} {name}, {context}: {rows[name, context]} != {want}; {page}"
                )
        assert rows["x itself", jit] == want, f"{point} x itself, {jit}: {rows['x itself', jit]}; {page}"
        assert rows["x itself", around].startswith("TypeError:") and "is out of scope" in rows["x itself", around], (
            f"{point} safe_std called on x, {around}: no longer the TypeError: {rows}; {page}"
        )
        for context in (jit, around):
            closure = rows["closure", context]
            if point.startswith("[3.0, 3.0, 3.0]"):
                assert closure == "[nan nan nan]", f"{point} closure, {context}: {closure}, not nan; {page}"
            else:
                assert closure == want, f"{point} closure, {context}: {closure} != {want}; {page}"


def test_safe_std_recipe_gives_zero_second_derivative_with_the_tapes_outside():
    safe_std = tf.function(recipe("02_safe_std.py")["safe_std"])
    x = tf.constant([3.0, 3.0, 3.0], tf.float64)
    first, second = second_derivative(safe_std, x)
    assert (first.numpy() == 0).all() and (second.numpy() == 0).all(), (
        f"safe_std in a tf.function, tapes outside, at [3, 3, 3]: {first}, {second}; "
        "docs/cookbook/numerical-instability.md#reduce-std-nan-recipe"
    )


# tf.sign, straight-through (docs/cookbook/straight-through.md#sign-straight-through)

SIGN_AT = [-2.0, -0.5, 0.0, 0.3, 1.5]
RULE = np.array([0.0, 1.0, 1.0, 1.0, 0.0])


def test_sign_gradient_is_zero_not_none():
    g = gradient(tf.sign, tf.constant(SIGN_AT))
    assert g is not None and (g.numpy() == 0).all(), (
        f"tf.sign's gradient is {g}, no longer zeros: rewrite docs/cookbook/straight-through.md#sign-straight-through"
    )
    with tf.autodiff.ForwardAccumulator(tf.constant(SIGN_AT), tf.ones(5)) as acc:
        y = tf.sign(tf.constant(SIGN_AT))
    assert acc.jvp(y) is None, "tf.sign now has a forward-mode derivative: update the proof paragraph"


def test_binarize_follows_the_rule_in_reverse_and_forward_mode():
    binarize = recipe("05_sign_straight_through.py")["binarize"]
    x = tf.constant(SIGN_AT)
    np.testing.assert_array_equal(binarize(x).numpy(), tf.sign(x).numpy())
    np.testing.assert_array_equal(gradient(lambda x: 3.0 * binarize(x), x).numpy(), 3.0 * RULE)
    with tf.autodiff.ForwardAccumulator(x, 3.0 * tf.ones_like(x)) as acc:
        y = binarize(x)
    np.testing.assert_array_equal(acc.jvp(y).numpy(), 3.0 * RULE)


def test_binarize_proof_and_one_liners():
    out = stdout_of("05_sign_straight_through.py")
    rows = blocks(out)[0]
    assert set(rows.values()) == {"OK"}, f"{DIR}/05_sign_straight_through.py: {rows}"
    assert "binarize: SavedModel order 1: error" in out and out.rstrip().endswith("OK"), out
    out = stdout_of("06_sign_stop_gradient.py")
    assert "  plain: value [-1. -1.  1.  1.  0.], gradient [3. 3. 3. 3. 3.]" in out, (
        f"{DIR}/06_sign_stop_gradient.py: the plain form's value at 1e8 in float32 (0, not 1) changed; update "
        f"docs/cookbook/straight-through.md#sign-straight-through-alternatives (and .ru.md):\n{out}"
    )
    assert "clipped: value [-1. -1.  1.  1.  1.], gradient [0. 3. 3. 0. 0.]" in out, out


# A NumPy solver (docs/cookbook/untraceable-code.md#numpy-solver)

P = [1.0, 4.0]


def test_numpy_function_has_no_gradient():
    solve = recipe("08_numpy_solver_implicit.py")["solve"]
    p = tf.constant(P, tf.float64)
    g = gradient(lambda p: tf.numpy_function(solve, [p], tf.float64), p)
    assert g is None, f"the gradient through tf.numpy_function is {g}, no longer None: rewrite the recipe's problem"


def test_root_gradient_matches_differences_and_fails_where_the_page_says():
    ns = recipe("08_numpy_solver_implicit.py")
    root, solve = ns["root"], ns["solve"]
    p = tf.constant(P, tf.float64)
    expected = -solve(np.array(P)) / (3 * solve(np.array(P)) ** 2 + np.array(P))  # -(dg/dp) / (dg/dr)
    np.testing.assert_allclose(gradient(root, p).numpy(), expected, rtol=1e-9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="unsupported operations"):
        tf.function(lambda p: gradient(root, p), jit_compile=True)(p)
    with pytest.raises(ValueError, match="Attempt to convert a value \\(None\\)"):
        with tf.autodiff.ForwardAccumulator(p, tf.ones_like(p)) as acc:
            acc.jvp(root(p))


def test_root_order_2_with_tapes_outside_a_tf_function_matches_eager():
    root = recipe("08_numpy_solver_implicit.py")["root"]
    where = f"{DIR}/08_numpy_solver_implicit.py, docs/cookbook/untraceable-code.md#numpy-solver-recipe"
    assert_order_2_with_tapes_outside_matches_eager(root, tf.constant(P, tf.float64), where)


def test_root_proof():
    out = stdout_of("08_numpy_solver_implicit.py")
    rows = blocks(out)[0]
    assert rows.pop("jit_compile order 1").startswith("MISMATCH InvalidArgumentError"), out
    assert rows.pop("forward mode order 1").startswith("MISMATCH ValueError"), out
    assert set(rows.values()) == {"OK"}, f"{DIR}/08_numpy_solver_implicit.py: {rows}"
    assert "root: SavedModel order 1: ValueError: Could not find callback" in out, (
        "a SavedModel with tf.numpy_function now reloads in a fresh process: update "
        "docs/cookbook/untraceable-code.md#numpy-solver-proof"
    )
    assert "dr/dp through numpy_function: None" in stdout_of("07_numpy_solver_no_gradient.py")


# Complex numbers (docs/cookbook/complex.md#complex-custom-gradient)

Z = 1.0 + 2.0j


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_builtin_complex_gradient_is_the_conjugate(dtype):
    z = tf.constant(Z, dtype)
    g = complex(gradient(lambda z: z * z, z).numpy())
    assert np.isclose(g, np.conj(2 * Z)), (
        f"d(z*z) at {Z} is {g}, not conj(2z) = {np.conj(2 * Z)}: the convention changed"
    )


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_recipe_follows_the_convention_and_the_naive_rule_does_not(dtype):
    ns = recipe("10_complex_custom_gradient.py")
    z = tf.constant(Z, dtype)
    loss = lambda f: lambda z: tf.abs(f(z)) ** 2  # noqa: E731
    builtin = complex(gradient(loss(lambda z: z * z), z).numpy())
    assert np.isclose(builtin, 4 * abs(Z) ** 2 * Z)  # dL/dx + i dL/dy of |z|**4
    assert np.isclose(complex(gradient(loss(ns["square"]), z).numpy()), builtin)
    naive = tf.custom_gradient(lambda z: (z * z, lambda dy: dy * 2.0 * z))
    assert not np.isclose(complex(gradient(loss(naive), z).numpy()), builtin)
    dy = tf.constant(0.5 - 1.0j, dtype)
    want = gradient(lambda z: z * tf.math.conj(z), z, output_gradients=dy).numpy()
    np.testing.assert_allclose(gradient(ns["abs_squared"], z, output_gradients=dy).numpy(), want, rtol=1e-6)


def test_complex_proof():
    out = stdout_of("10_complex_custom_gradient.py")
    verdicts = re.findall(r" (ok|WRONG)$", out, re.M)
    assert len(verdicts) == 11 and set(verdicts) == {"ok"}, out
    assert "forward mode  order 1: (2+4j) ok" in out, out
    naive = stdout_of("09_complex_naive_gradient.py")
    assert "naive: gradient (-44-8j), loss 25.00 -> 40.96" in naive, naive
