"""Implicit differentiation of a fixed point (docs/cookbook/implicit-differentiation.md#fixed-point-implicit-gradient),
checked on TensorFlow itself.

The built-in half: backpropagating through N unrolled steps gives the gradient of the N-th iterate (wrong at 10
steps, right at 100) with one Sin op per step in the backward pass; forward mode calls `grad` with a tape that
records nothing. The recipe's half: the `recipe` section's `fixed_point` matches float64 differences (also with
coupled unknowns and in float32), an eager tape records none of its steps (all of them without the
stop_gradient), the closure's z would break order 2, a non-converged iteration raises (and is nan under XLA and in a
TF1 Session, which do not run the Assert), the spectral radius of df/dz is what must be below 1 for the iteration
(not its norm), an iterate that lands on a fixed point stops there whatever df/dz is (and I - df/dz = 0 breaks the
backward pass), forward mode gives 0, and the proof's reverse-mode rows are all OK. No timing or memory is measured or asserted.
"""

from __future__ import annotations

import traceback

import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import (
    DIR,
    OUT_OF_SCOPE,
    ROOT,
    SECTION,
    assert_order_2_with_tapes_outside_matches_eager,
    blocks,
    gradient,
    recipe,
    stdout_of,
)

PAGE = "docs/cookbook/implicit-differentiation.md"
SNIPPET = "44_fixed_point_implicit.py"
A = [0.5, 1.0]


def solution(a):
    z = np.zeros_like(a)
    for _ in range(5000):
        z = np.cos(a * z)
    return z


def reference(a, h=1e-6):
    a = np.asarray(a, np.float64)
    return (solution(a + h) - solution(a - h)) / (2 * h)


def unrolled_gradient(steps):
    a = tf.constant(A, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        z = tf.zeros_like(a)
        for _ in range(steps):
            z = tf.cos(a * z)
    return tape.gradient(z, a).numpy()


def test_the_unrolled_gradient_is_that_of_the_last_iterate():
    assert abs(unrolled_gradient(10)[1] - reference(A)[1]) > 0.1, (
        f"10 unrolled steps of z = cos(a z) now give {unrolled_gradient(10)}, near {reference(A)}: rewrite "
        f"{PAGE}#fixed-point-implicit-gradient-problem (and .ru.md)"
    )
    np.testing.assert_allclose(unrolled_gradient(100), reference(A), rtol=1e-6)
    out = stdout_of("43_fixed_point_unrolled.py")
    for steps in (10, 30, 100):
        assert f"{steps} Sin ops in the backward pass" in out, (
            f"{DIR}/43_fixed_point_unrolled.py: the backward pass of {steps} steps no longer has {steps} Sin ops: "
            f"update {PAGE}#fixed-point-implicit-gradient-problem (and .ru.md):\n{out}"
        )
    assert " 10 steps: dz/da [-0.321775 -0.406881]" in out, out


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_fixed_point_matches_differences(dtype):
    tol = 1e-6 if dtype == tf.float32 else 1e-12  # float32 never moves by less than 1e-12: it would raise
    solve = recipe(SNIPPET)["fixed_point"](lambda z, a: tf.cos(a * z), tol=tol)
    a = tf.constant(A, dtype)
    rtol = 1e-5 if dtype == tf.float32 else 1e-8
    np.testing.assert_allclose(solve(a).numpy(), solution(np.array(A)), rtol=rtol)
    np.testing.assert_allclose(gradient(solve, a).numpy(), reference(A), rtol=rtol)


def test_fixed_point_with_coupled_unknowns_at_orders_1_and_2():
    m = tf.constant([[0.3, -0.2], [0.4, 0.1]], tf.float64)
    step = lambda z, a: tf.tanh(tf.linalg.matvec(m, z) + a)  # noqa: E731
    solve = recipe(SNIPPET)["fixed_point"](step)

    def plain(a):  # backpropagated through 200 steps: the reference
        z = tf.zeros_like(a)
        for _ in range(200):
            z = step(z, a)
        return z

    a = tf.constant([0.5, -1.0], tf.float64)
    weights = tf.constant([0.7, 1.3], tf.float64)
    for f in (solve, plain):
        with tf.GradientTape() as outer:
            outer.watch(a)
            with tf.GradientTape() as inner:
                inner.watch(a)
                y = tf.reduce_sum(weights * f(a))
            first = inner.gradient(y, a)
            s = tf.reduce_sum(first * weights)
        if f is solve:
            got = (first.numpy(), outer.gradient(s, a).numpy())
        else:
            want = (first.numpy(), outer.gradient(s, a).numpy())
    np.testing.assert_allclose(got[0], want[0], rtol=1e-9)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-7)


def test_forward_mode_calls_grad_with_a_tape_that_records_nothing():
    seen = []

    @tf.custom_gradient
    def square(x):
        def grad(dy):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x * x
            seen.append(tape.gradient(y, x))
            return dy * 2 * x

        return x * x, grad

    x = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = square(x)
    assert seen == [None] and float(acc.jvp(y)) == 6.0, (
        f"forward mode's call of grad now sees {seen}: update {PAGE}#fixed-point-implicit-gradient-proof (and .ru.md) "
        "and the `ZERO` comment of the recipe"
    )


def recipe_variant(*changes: tuple[str, str]) -> dict:
    """The recipe section with some lines replaced (each must be there once)."""
    code = SECTION.search((ROOT / DIR / SNIPPET).read_text(encoding="utf-8"))[1]
    for old, new in changes:
        assert code.count(old) == 1, f"{DIR}/{SNIPPET}: the recipe no longer has {old!r}"
        code = code.replace(old, new)
    found = {"tf": tf, "np": np}
    exec(compile(code, SNIPPET, "exec"), found)  # noqa: S102
    return found


def recorded_steps(fixed_point) -> tuple[int, int]:
    """(steps an eager tape recorded, steps) for z = cos(a z) at A."""
    steps, a = [], tf.constant(A, tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        fixed_point(lambda z, a: steps.append(tf.cos(a * z)) or steps[-1])(a)
    return sum(tape.gradient(s, a) is not None for s in steps), len(steps)


def test_the_eager_tape_does_not_record_the_iterations():
    recorded, steps = recorded_steps(recipe(SNIPPET)["fixed_point"])
    assert recorded == 0 and steps > 50, (
        f"{DIR}/{SNIPPET}: an eager tape around solve(a) records {recorded} of {steps} steps: "
        f"the recipe must iterate on tf.stop_gradient(a) ({PAGE}#fixed-point-implicit-gradient-recipe)"
    )
    # without stop_gradient, it records them all: what the stop_gradient is for
    plain = recipe_variant(("iterate(tf.stop_gradient(a))", "iterate(a)"))["fixed_point"]
    recorded, steps = recorded_steps(plain)
    assert recorded == steps, (recorded, steps)


def second_derivative(fixed_point, outside=False):
    """d/da of sum(dz/da) for z = cos(a z) at A; outside: solve in a tf.function, the tapes outside it."""
    solve = fixed_point(lambda z, a: tf.cos(a * z))
    solve = tf.function(solve, autograph=False) if outside else solve
    a = tf.constant(A, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            z = solve(a)
        g = inner.gradient(z, a)
    return outer.gradient(g, a).numpy()


def test_grad_solves_again_and_the_closure_z_would_be_wrong_at_order_2():
    h = 1e-4
    want = (reference([A[0] + h, A[1] + h]) - reference([A[0] - h, A[1] - h])) / (2 * h)
    np.testing.assert_allclose(second_derivative(recipe(SNIPPET)["fixed_point"]), want, rtol=1e-5)
    closure = recipe_variant(  # grad reads the z the forward pass returned
        ("z = solve(tf.identity(a))  # not the closure's z", "pass  #"),
        ("return iterate(tf.stop_gradient(a)), grad", "z = iterate(tf.stop_gradient(a))\n        return z, grad"),
    )["fixed_point"]
    got = second_derivative(closure)
    assert np.max(np.abs(got - want)) > 0.1, (
        f"the closure's z now gives the right second derivative {got}: update "
        f"{PAGE}#fixed-point-implicit-gradient-recipe (and .ru.md)"
    )


def test_grad_solves_again_on_tf_identity_so_the_tapes_outside_a_tf_function_work():
    """#fixed-point-implicit-gradient-recipe: solve(tf.identity(a)) in grad; solve(a) raises with the tapes outside."""
    fixed_point = recipe(SNIPPET)["fixed_point"]
    solve = fixed_point(lambda z, a: tf.cos(a * z))
    where = f"{DIR}/{SNIPPET}, {PAGE}#fixed-point-implicit-gradient-recipe"
    assert_order_2_with_tapes_outside_matches_eager(solve, tf.constant(A, tf.float64), where)
    on_a = recipe_variant(("z = solve(tf.identity(a))", "z = solve(a)"))["fixed_point"]
    np.testing.assert_allclose(second_derivative(on_a), second_derivative(fixed_point), rtol=1e-12)  # eager: the same
    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):
        second_derivative(on_a, outside=True)
        pytest.fail(f"solve(a) in grad now works with the tapes outside a tf.function: update {OUT_OF_SCOPE}")


def test_forward_mode_gives_zero_and_the_subtraction_raises_without_zero():
    solve = recipe(SNIPPET)["fixed_point"](lambda z, a: tf.cos(a * z))
    a = tf.constant(A, tf.float64)
    with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
        z = solve(a)
    np.testing.assert_array_equal(acc.jvp(z, unconnected_gradients="zero").numpy(), [0.0, 0.0])
    # iterating on a itself, forward mode differentiates the recorded iterations: right, as the page says
    plain = recipe_variant(("iterate(tf.stop_gradient(a))", "iterate(a)"))["fixed_point"]
    with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
        z = plain(lambda z, a: tf.cos(a * z))(a)
    np.testing.assert_allclose(acc.jvp(z).numpy(), reference(A), rtol=1e-8)
    # the same recipe with None for what is not recorded: `eye - df_dz` raises before tf.linalg.solve
    code = SECTION.search((ROOT / DIR / SNIPPET).read_text(encoding="utf-8"))[1]
    assert code.count(", unconnected_gradients=zero") == 2, code
    broken = {"tf": tf, "np": np}
    exec(compile(code.replace(", unconnected_gradients=zero", ""), SNIPPET, "exec"), broken)  # noqa: S102
    solve = broken["fixed_point"](lambda z, a: tf.cos(a * z))
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\)") as raised:
        with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)):
            solve(a)
    lines = [code.splitlines()[f.lineno - 1] for f in traceback.extract_tb(raised.tb) if f.filename == SNIPPET]
    assert "eye - df_dz" in lines[-1], lines


def test_no_convergence_raises_and_a_must_be_1_d():
    solve = recipe(SNIPPET)["fixed_point"](lambda z, a: tf.cos(a * z))
    with pytest.raises(tf.errors.InvalidArgumentError, match="no convergence"):
        solve(tf.constant([1.4], tf.float64))
    for bad in ([[0.5, 1.0]], 0.5):
        with pytest.raises(ValueError, match="must be 1-D"):
            solve(tf.constant(bad, tf.float64))
    # a static rank of 1: an unknown rank at tracing raises too, even for a 1-D input
    unknown = tf.function(lambda a: solve(a), input_signature=[tf.TensorSpec(None, tf.float64)])
    with pytest.raises(ValueError, match="must be 1-D"):
        unknown(tf.constant(A, tf.float64))


def value_and_gradient_under_xla(fixed_point, a):
    solve = fixed_point(lambda z, a: tf.cos(a * z))

    @tf.function(jit_compile=True)
    def both(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            z = solve(a)
        return z, tape.gradient(z, a)

    return [t.numpy() for t in both(tf.constant(a, tf.float64))]


def test_under_xla_no_convergence_is_nan_and_a_solution_unchanged():
    """#fixed-point-implicit-gradient-recipe: XLA ignores the Assert; the tf.where makes a non-solution nan."""
    fixed_point = recipe(SNIPPET)["fixed_point"]
    z, dz = value_and_gradient_under_xla(fixed_point, [1.4])
    assert np.isnan(z).all() and np.isnan(dz).all(), (
        f"{DIR}/{SNIPPET}: under jit_compile=True a = 1.4 gives z {z}, dz/da {dz}, not nan: "
        f"update {PAGE}#fixed-point-implicit-gradient-recipe (and .ru.md)"
    )
    z, dz = value_and_gradient_under_xla(fixed_point, A)
    np.testing.assert_array_equal(
        z, recipe(SNIPPET)["fixed_point"](lambda z, a: tf.cos(a * z))(tf.constant(A, tf.float64))
    )
    np.testing.assert_allclose(dz, reference(A), rtol=1e-8)
    # without the tf.where, XLA returns the last iterate, a non-solution, with a finite gradient: what it is for
    plain = recipe_variant(("return tf.where(moved < tol, z, tf.constant(np.nan, a.dtype))", "return z"))
    z, dz = value_and_gradient_under_xla(plain["fixed_point"], [1.4])
    residual = np.abs(z - np.cos(1.4 * z)).max()
    assert np.isfinite(dz).all() and residual > 0.1, (
        f"XLA now honours tf.debugging.Assert (or the last iterate solves z = cos(1.4 z): residual {residual}): "
        f"update {PAGE}#fixed-point-implicit-gradient-recipe (and .ru.md)"
    )


def test_in_a_tf1_session_the_assert_is_not_run_and_no_convergence_is_nan():
    """#fixed-point-implicit-gradient-recipe: nothing fetched depends on the Assert; the tf.where gives nan."""
    solve = recipe(SNIPPET)["fixed_point"](lambda z, a: tf.cos(a * z))
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float64, [1])
        z = solve(a)
        with tf.compat.v1.Session() as session:
            got = session.run(z, {a: [1.4]})
            converged = session.run(z, {a: [0.5]})
            dz = tf.compat.v1.gradients(z, a)[0]
            with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible"):
                session.run(dz, {a: [1.4]})  # the page: fetching its gradient raises
    assert np.isnan(got).all(), (
        f"a TF1 Session now runs the recipe's Assert (or returns {got} at a = 1.4): update "
        f"{PAGE}#fixed-point-implicit-gradient-recipe (and .ru.md)"
    )
    np.testing.assert_allclose(converged, solution(np.array([0.5])), rtol=1e-10)


def test_landing_on_a_fixed_point_converges_whatever_df_dz_and_i_minus_df_dz_can_be_singular():
    """#fixed-point-implicit-gradient-recipe: z = a sin z stops at z = 0 after one step, where df/dz = a."""
    solve = recipe(SNIPPET)["fixed_point"](lambda z, a: a * tf.sin(z))
    # a = 2: df/dz = 2, a spectral radius above 1, yet the iterate is the fixed point, and dz/da = sin 0 / (1 - 2) = 0
    a = tf.constant([2.0], tf.float64)
    np.testing.assert_array_equal(solve(a).numpy(), [0.0])
    np.testing.assert_array_equal(gradient(solve, a).numpy(), [0.0])
    # a = 1: I - df/dz = 0, the backward pass's solve raises, and under XLA the gradient is nan
    a = tf.constant([1.0], tf.float64)
    np.testing.assert_array_equal(solve(a).numpy(), [0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible"):
        gradient(solve, a)
        pytest.fail(
            f"the recipe's backward pass at z = a sin z, a = 1 (I - df/dz = 0) no longer raises: update "
            f"{PAGE}#fixed-point-implicit-gradient-recipe (and .ru.md)"
        )

    @tf.function(jit_compile=True)
    def under_xla(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            z = solve(a)
        return z, tape.gradient(z, a)

    z, dz = under_xla(a)
    assert z.numpy().tolist() == [0.0] and np.isnan(dz.numpy()).all(), (
        f"under XLA, z = a sin z at a = 1 gives z {z.numpy()}, dz/da {dz.numpy()}, not nan: update "
        f"{PAGE}#fixed-point-implicit-gradient-recipe (and .ru.md)"
    )


def test_the_spectral_radius_not_the_norm_of_df_dz_must_be_below_1():
    """A linear step z = J z + a with |J|_2 > 1 but spectral radius 0.5 converges, and the gradient is exact."""
    J = np.array([[0.5, 2.0], [0.0, 0.5]])
    assert np.linalg.norm(J, 2) > 2 and max(abs(np.linalg.eigvals(J))) == 0.5
    solve = recipe(SNIPPET)["fixed_point"](lambda z, a: tf.linalg.matvec(tf.constant(J), z) + a)
    a, w = tf.constant([1.0, -1.0], tf.float64), np.array([1.0, 2.0])
    np.testing.assert_allclose(solve(a).numpy(), np.linalg.solve(np.eye(2) - J, a.numpy()), rtol=1e-10)
    got = gradient(lambda a: tf.reduce_sum(w * solve(a)), a).numpy()
    np.testing.assert_allclose(got, np.linalg.solve((np.eye(2) - J).T, w), rtol=1e-10)


def test_fixed_point_proof():
    out = stdout_of(SNIPPET)
    found = blocks(out)
    saved = found.pop()
    assert list(saved.values()) == ["OK"], f"{DIR}/{SNIPPET}: {saved}"
    (rows,) = found
    assert len(rows) == 9 and rows.pop("forward mode order 1").startswith("MISMATCH"), f"{DIR}/{SNIPPET}: {rows}"
    assert set(rows.values()) == {"OK"}, f"{DIR}/{SNIPPET}: {rows}"
    assert "eager tape: 0 of 70 steps recorded" in out, out
    assert "a = 1.4: InvalidArgumentError: " in out and "no convergence" in out, out
    assert "a = 1.4, jit_compile=True: z [nan], dz/da [nan]" in out, out
    assert "cos_fixed_point: SavedModel order 1: error" in out, out
    assert "dz/da at [0.5, 1]: [-0.321771 -0.297474]" in out, out
    assert "  3 Sin ops in the backward pass" in out, (
        f"{DIR}/{SNIPPET}: the implicit backward pass no longer has 3 Sin ops: update "
        f"{PAGE}#fixed-point-implicit-gradient-proof (and .ru.md):\n{out}"
    )
    assert "in grad: tape.gradient None, with ZERO 0.0" in stdout_of("46_forward_mode_tape_in_grad.py")


def test_the_shortcuts():
    out = stdout_of("45_fixed_point_alternatives.py")
    assert "last step only: dz/da [-0.391778 -0.497857]" in out, out
    assert "reference:      dz/da [-0.321771 -0.297474]" in out, out
    assert "linear, tf.linalg.solve: gradient [1.830986 0.704225]" in out, out
    assert "central differences:   [1.830986 0.704225]" in out, out
