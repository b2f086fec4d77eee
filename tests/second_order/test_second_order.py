"""Second-order chapter (docs/second-order.md): the maths and TensorFlow's behaviour the page relies on.

Each test rebuilds the pattern a snippet shows, in this process and in float64, and checks it against the closed
form (softplus: f' = sigmoid, f'' = sigmoid * (1 - sigmoid); sin: f'' = -sin), plain nested-tape autodiff and
tf.test.compute_gradient. Tests that read a snippet's printed output say which snippet and which section of the
page to update when TensorFlow changes.
"""

import math

import numpy as np
import pytest
import tensorflow as tf

from tests.harness import run_snippet

SNIPPETS = "snippets/second_order"
PAGE = "docs/second-order.md (and .ru.md)"
X = np.array([-3.0, -0.5, 0.0, 0.7, 2.5])
MODES = ["eager", "tf.function"]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def fused_op(x):  # value and derivative of softplus, opaque to the tape
    return tf.stop_gradient(tf.math.softplus(x)), tf.stop_gradient(tf.math.sigmoid(x))


def version1():
    @tf.custom_gradient
    def softplus(x):
        y, x_grad = fused_op(x)

        def first_order_gradient(dy):
            @tf.custom_gradient
            def first_order_custom(unused_x):
                def second_order(ddy):
                    return ddy * x_grad * (1 - x_grad)

                return x_grad, second_order

            return dy * first_order_custom(x)

        return y, first_order_gradient

    return softplus


def version2(gradient_wrt_dy=lambda ddy, x_grad: ddy * x_grad):
    @tf.custom_gradient
    def softplus(x):
        y, x_grad = fused_op(x)

        def first_order_gradient(dy):
            @tf.custom_gradient
            def first_order_custom(unused_x, dy):
                def second_order_and_transpose(ddy):
                    return ddy * dy * x_grad * (1 - x_grad), gradient_wrt_dy(ddy, x_grad)

                return dy * x_grad, second_order_and_transpose

            return first_order_custom(x, dy)

        return y, first_order_gradient

    return softplus


def without_unused_x():
    @tf.custom_gradient
    def softplus(x):
        y, x_grad = fused_op(x)
        return y, lambda dy: dy * x_grad

    return softplus


def derivatives(f, x, upstream=1.0):
    """(first, second, d first / d dy) with dy = upstream, by nested tapes."""
    dy = tf.fill(tf.shape(x), tf.constant(upstream, x.dtype))
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, dy])
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x, output_gradients=dy)
    return first, outer.gradient(first, x), outer.gradient(first, dy)


def in_mode(mode, f, *args):
    """Run f(*args) eagerly or inside tf.function; f must be a closure (see the note in the chapter tests)."""
    # A @tf.custom_gradient function passed as an *argument* of a tf.function loses its decorator in TF 2.21,
    # so every function below captures it in a closure instead.
    return f(*args) if mode == "eager" else tf.function(f)(*args)


def raised(run):
    """The exception run() raises, or None."""
    try:
        run()
    except Exception as e:
        return e
    return None


def numbers(t):
    return None if t is None else t.numpy()


# --- 01: the docstring example as printed ---------------------------------------------------------------


def test_docstring_example_as_printed_snippet_output():
    result = run_snippet(f"{SNIPPETS}/01_docstring_as_printed.py")
    out = result.stdout
    where = f"{SNIPPETS}/01_docstring_as_printed.py; update {PAGE} section #run-as-printed"
    assert "eager: first derivative at x = 0 is 0.5000" in out, f"first derivative changed in eager mode ({where})"
    assert "tf.function: first derivative at x = 0 is 0.5000" in out, (
        f"first derivative changed in tf.function ({where})"
    )
    assert (
        "eager: second derivative fails with ValueError: custom_gradient function expected to return 1 gradients, "
        "but returned 2 instead." in out
    ), f"TensorFlow no longer raises the same ValueError in eager mode ({where}):\n{out}"
    assert "tf.function: second derivative fails with InternalError:" in out and "Expected 2 but received 3" in out, (
        f"TensorFlow no longer raises InternalError '... Expected 2 but received 3' inside tf.function ({where}):\n{out}"
    )
    for context in ["tapes outside tf.function", "tf.gradients in tf.function"]:
        assert f"{context}: first derivative at x = 0 is 0.5000" in out, (
            f"first derivative changed, {context} ({where})"
        )
        assert (
            f"{context}: second derivative fails with ValueError: Num gradients 3 generated for op ... "
            "do not match num inputs 2" in out
        ), f"the graph's backward pass no longer raises the same ValueError, {context} ({where}):\n{out}"
    for line in [
        "eager: under a second tape, outer.gradient fails with ValueError: custom_gradient function expected to "
        "return 1 gradients, but returned 2 instead.",
        "tapes inside tf.function: under a second tape, outer.gradient fails with InternalError: Recorded operation "
        "'first_order_custom' returned too few gradients. Expected 2 but received 3",
        "tapes outside tf.function: under a second tape, inner.gradient fails with ValueError: Num gradients 3 "
        "generated for op ... do not match num inputs 2",
    ]:
        assert line in out, f"the first derivative under a second tape changed ({where}): no {line!r} in\n{out}"


def docstring_as_printed():
    """The docstring's op_with_fused_backprop with its bug: two gradients for first_order_custom's one input."""

    @tf.custom_gradient
    def op_with_fused_backprop(x):
        y, x_grad = fused_op(x)

        def first_order_gradient(dy):
            @tf.custom_gradient
            def first_order_custom(unused_x):
                def second_order_and_transpose(ddy):
                    return ddy * x_grad * (1 - x_grad), ddy * x_grad

                return x_grad, second_order_and_transpose

            return dy * first_order_custom(x)

        return y, first_order_gradient

    return op_with_fused_backprop


def first_derivative_under_second_tape(f, x, watch_x, reached):
    """A gradient penalty's layout: the outer tape trains w on w * f'(x); no second derivative is asked for."""
    w = tf.constant(1.0, x.dtype)
    with tf.GradientTape() as outer:
        outer.watch([x, w] if watch_x else [w])
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x)
        reached.append("outer.gradient")
        loss = w * first
    return outer.gradient(loss, w)


UNDER_SECOND_TAPE = [  # context, the second tape watches x, the call that fails, its error and message
    ("eager", True, "outer.gradient", ValueError, "expected to return 1 gradients, but returned 2"),
    ("tapes inside tf.function", True, "outer.gradient", tf.errors.InternalError, "Expected 2 but received 3"),
    ("tapes outside tf.function", True, "inner.gradient", ValueError, "Num gradients 3 generated for op"),
    ("eager, second tape not watching x", False, None, None, None),
    ("tapes outside tf.function, second tape not watching x", False, None, None, None),
]


@pytest.mark.parametrize(
    "context, watch_x, fails_at, error, message", UNDER_SECOND_TAPE, ids=[case[0] for case in UNDER_SECOND_TAPE]
)
def test_docstring_first_derivative_under_second_tape(context, watch_x, fails_at, error, message):
    f, x, reached = docstring_as_printed(), tf.constant(X), []
    run = {
        "eager": lambda: first_derivative_under_second_tape(f, x, watch_x, reached),
        "tapes inside tf.function": lambda: tf.function(
            lambda x: first_derivative_under_second_tape(f, x, watch_x, reached)
        )(x),
        "tapes outside tf.function": lambda: first_derivative_under_second_tape(tf.function(f), x, watch_x, reached),
    }[context.split(",")[0]]
    where = f"{SNIPPETS}/01_docstring_as_printed.py, {PAGE} section #run-as-printed"
    if error is None:
        np.testing.assert_allclose(
            numbers(run()), sigmoid(X).sum(), rtol=1e-12, err_msg=f"{context}: d loss/dw = sum of f'(x) ({where})"
        )
        return
    caught = raised(run)
    assert isinstance(caught, error) and message in str(caught), (
        f"{context}: the docstring example's first derivative under a second tape watching x now gives {caught!r}, "
        f"not {error.__name__} '{message}' ({where})"
    )
    at = "outer.gradient" if reached else "inner.gradient"
    assert at == fails_at, f"{context}: it now fails at {at}, not {fails_at} ({where})"


# --- 02: without unused_x the second derivative is None ---------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_without_unused_x_second_derivative_is_none(mode):
    f = without_unused_x()
    first, second, _ = in_mode(mode, lambda x: derivatives(f, x), tf.constant(X))
    np.testing.assert_allclose(numbers(first), sigmoid(X), rtol=1e-12)
    assert second is None, (
        f"{mode}: a grad returning dy * x_grad (x_grad opaque) now has a second derivative {numbers(second)}; "
        f"{SNIPPETS}/02_without_unused_x.py and {PAGE} section #why-unused-x say it is None"
    )


# --- 03 / 04: the two correct versions ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", [version1, version2], ids=["version1", "version2"])
@pytest.mark.parametrize("upstream", [1.0, 3.0])
def test_versions_match_closed_form_and_autodiff(make, mode, upstream):
    f = make()
    x = tf.constant(X)
    first, second, wrt_dy = in_mode(mode, lambda x: derivatives(f, x, upstream), x)
    ref_first, ref_second, ref_wrt_dy = in_mode(mode, lambda x: derivatives(tf.math.softplus, x, upstream), x)
    s = sigmoid(X)
    name = f"{make.__name__} ({mode}, dy = {upstream})"
    np.testing.assert_allclose(numbers(first), upstream * s, rtol=1e-12, err_msg=f"{name}: first derivative")
    np.testing.assert_allclose(
        numbers(second), upstream * s * (1 - s), rtol=1e-12, err_msg=f"{name}: second derivative vs closed form"
    )
    np.testing.assert_allclose(
        numbers(second),
        numbers(ref_second),
        rtol=1e-12,
        err_msg=f"{name}: second derivative vs nested tapes on tf.math.softplus",
    )
    np.testing.assert_allclose(numbers(wrt_dy), s, rtol=1e-12, err_msg=f"{name}: gradient w.r.t. dy")
    np.testing.assert_allclose(numbers(wrt_dy), numbers(ref_wrt_dy), rtol=1e-12)


@pytest.mark.parametrize("make", [version1, version2], ids=["version1", "version2"])
def test_versions_pass_compute_gradient_at_second_order(make):
    f = make()

    def first_derivative(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)

    theoretical, numerical = tf.test.compute_gradient(first_derivative, [tf.constant(X)])
    np.testing.assert_allclose(theoretical[0], numerical[0], atol=1e-6)
    np.testing.assert_allclose(np.diag(theoretical[0]), sigmoid(X) * (1 - sigmoid(X)), rtol=1e-12)


def test_version1_is_stable_where_autodiff_of_log1pexp_is_nan():
    x = tf.constant([100.0])  # float32, as on the page
    _, second, _ = derivatives(version1(), x)
    assert numbers(second)[0] == 0.0, f"version 1 at x = 100 gives {numbers(second)}, the page shows 0.0000"


@pytest.mark.parametrize("name", ["03_version1_second_order_only", "04_version2_dy_as_input"])
def test_printed_tables_agree_row_by_row(name):
    out = run_snippet(f"{SNIPPETS}/{name}.py").stdout
    groups = [[]]
    for line in out.splitlines():
        if line.startswith("x "):
            continue
        if not line[34:].strip():  # a heading such as "second derivative"
            groups.append([])
        else:
            groups[-1].append(line[34:])
    groups = [g for g in groups if g]
    assert groups and all(len(g) >= 4 and len(set(g)) == 1 for g in groups), (
        f"{SNIPPETS}/{name}.py: the rows the page says agree (closed form, nested tapes, eager, tf.function) "
        f"no longer print the same numbers:\n{out}"
    )


# --- 05: forward mode reads the gradient w.r.t. dy -------------------------------------------------------


def forward_and_reverse(f, x):
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=tf.ones_like(x)) as acc:
        y = f(x)
    first, second, _ = derivatives(f, x)
    return acc.jvp(y), first, second


@pytest.mark.parametrize(
    "name, make, expected_jvp",
    [
        ("version 2, right", lambda: version2(), lambda s: s),
        (
            "version 2, ddy instead of ddy * x_grad",
            lambda: version2(lambda ddy, x_grad: ddy),
            lambda s: np.ones_like(s),
        ),
        ("version 2, None", lambda: version2(lambda ddy, x_grad: None), lambda s: None),
        ("version 1 (dy outside)", version1, lambda s: s),
    ],
)
def test_forward_mode_uses_gradient_wrt_dy_reverse_mode_does_not(name, make, expected_jvp):
    jvp, first, second = forward_and_reverse(make(), tf.constant(X))
    s = sigmoid(X)
    where = f"{SNIPPETS}/05_forward_mode_uses_dy_gradient.py, {PAGE} section #forward-mode"
    np.testing.assert_allclose(numbers(first), s, rtol=1e-12, err_msg=f"{name}: reverse mode changed ({where})")
    np.testing.assert_allclose(numbers(second), s * (1 - s), rtol=1e-12, err_msg=f"{name}: second order ({where})")
    want = expected_jvp(s)
    if want is None:
        assert jvp is None, f"{name}: forward mode now gives {numbers(jvp)} instead of None ({where})"
    else:
        assert jvp is not None, f"{name}: forward mode now gives None ({where})"
        np.testing.assert_allclose(numbers(jvp), want, rtol=1e-12, err_msg=f"{name}: forward mode ({where})")


def test_forward_mode_snippet_output():
    out = run_snippet(f"{SNIPPETS}/05_forward_mode_uses_dy_gradient.py").stdout
    found = {line[:20].strip(): line[20:].split() for line in out.splitlines()[1:]}
    # columns: forward mode eager, inside tf.function, around tf.function; reverse; second
    expected = {
        "right: ddy * x_grad": ["0.5000", "0.0000", "TypeError", "0.5000", "0.2500"],
        "wrong: ddy": ["1.0000", "0.0000", "TypeError", "0.5000", "0.2500"],
        "wrong: None": ["None", "0.0000", "TypeError", "0.5000", "0.2500"],
        "version 1": ["0.5000", "0.0000", "TypeError", "0.5000", "0.2500"],
        "tf.math.softplus": ["0.5000", "0.5000", "0.5000", "0.5000", "0.2500"],
    }
    assert found == expected, (
        f"{SNIPPETS}/05_forward_mode_uses_dy_gradient.py: eager forward mode should change with the dy gradient, "
        f"inside tf.function it gave 0 and around one a TypeError (tf.math.softplus: the true value), and reverse "
        f"mode should not change; update "
        f"{PAGE} section #forward-mode if TensorFlow changed this:\n{out}"
    )


def forward_mode(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = f(x)
    return acc.jvp(y)


FORWARD_CONTEXTS = {
    "eager": lambda f, x: forward_mode(f, x),
    "inside tf.function": lambda f, x: tf.function(lambda x: forward_mode(f, x))(x),
    "around tf.function": lambda f, x: forward_mode(tf.function(f), x),
}


@pytest.mark.parametrize(
    "context, expected",
    [("eager", "sigmoid"), ("inside tf.function", "zeros"), ("around tf.function", TypeError)],
)
def test_version1_forward_mode_works_only_in_eager_mode(context, expected):
    where = (
        f"{SNIPPETS}/05_forward_mode_uses_dy_gradient.py (row 'version 1'), {PAGE} sections #version-1, #forward-mode"
    )
    x, run = tf.constant(X), FORWARD_CONTEXTS[context]
    if expected is TypeError:
        error = raised(lambda: run(version1(), x))  # TF fails inside its own error handling
        assert isinstance(error, TypeError) and "InternalError.__init__" in str(error), (
            f"version 1, forward mode {context}: no longer the internal TypeError but {error!r} ({where})"
        )
        return
    jvp = run(version1(), x)
    want = sigmoid(X) if expected == "sigmoid" else np.zeros_like(X)
    assert jvp is not None, f"version 1, forward mode {context}: now None ({where})"
    np.testing.assert_allclose(numbers(jvp), want, rtol=1e-12, err_msg=f"version 1, forward mode {context} ({where})")
    # TensorFlow's own softplus gets the true derivative in the same context: the loss is the custom gradient's
    np.testing.assert_allclose(
        numbers(run(tf.math.softplus, x)), sigmoid(X), rtol=1e-12, err_msg=f"tf.math.softplus, {context} ({where})"
    )


def version1_marked(opaque):
    """Version 1 whose first derivative is marked (3 * sigmoid); fused_op opaque or not."""

    @tf.custom_gradient
    def softplus(x):
        y, x_grad = fused_op(x) if opaque else (tf.math.softplus(x), tf.math.sigmoid(x))

        def first_order_gradient(dy):
            @tf.custom_gradient
            def first_order_custom(unused_x):
                return 3.0 * x_grad, lambda ddy: ddy * x_grad * (1 - x_grad)

            return dy * first_order_custom(x)

        return y, first_order_gradient

    return softplus


@pytest.mark.parametrize(
    "context, opaque, expected",
    [
        ("eager", True, "grad"),
        ("inside tf.function", True, "zeros"),
        ("inside tf.function, fused_op transparent", False, "forward ops"),
    ],
)
def test_forward_mode_inside_tf_function_differentiates_the_forward_ops(context, opaque, expected):
    where = f"{SNIPPETS}/05_forward_mode_uses_dy_gradient.py, {PAGE} section #forward-mode (why 0 inside tf.function)"
    jvp = FORWARD_CONTEXTS[context.split(",")[0]](version1_marked(opaque), tf.constant(X))
    want = {"grad": 3.0 * sigmoid(X), "zeros": np.zeros_like(X), "forward ops": sigmoid(X)}[expected]
    assert jvp is not None, f"forward mode {context}: now None ({where})"
    np.testing.assert_allclose(
        numbers(jvp), want, rtol=1e-12, err_msg=f"forward mode {context} should give the {expected} value ({where})"
    )


def docstring_log1pexp(calls, extra=False):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            calls.append(1)
            g = dy * (1 - 1 / (1 + e))
            return (g, g) if extra else g

        return tf.math.log(1 + e), grad

    return log1pexp


def marked_double(calls):
    """2x, whose grad returns a marker: 100 per unit of dy instead of the true 2."""

    @tf.custom_gradient
    def double(x):
        def grad(dy):
            calls.append(1)
            return dy * 100.0

        return 2.0 * x, grad

    return double


@pytest.mark.parametrize(
    "context, expected, expected_marked",
    [
        ("eager", "nan", 2.0),
        ("inside tf.function", "nan", 2.0),
        ("around tf.function", 1.0, 100.0),
    ],
)
def test_forward_mode_calls_grad_and_uses_it_only_around_a_tf_function(context, expected, expected_marked):
    where = f"{SNIPPETS}/09_forward_mode_skips_custom_gradient.py, {PAGE} section #forward-mode"
    run = FORWARD_CONTEXTS[context]
    calls = []
    jvp = float(run(docstring_log1pexp(calls), tf.constant(100.0)))
    assert len(calls) == 1, f"forward mode {context} now calls log1pexp's grad {len(calls)} times, not once: {where}"
    if expected == "nan":
        assert math.isnan(jvp), f"forward mode {context} now uses the custom grad (gives {jvp}, not nan): {where}"
    else:
        assert jvp == expected, f"forward mode {context} no longer uses the custom grad (gives {jvp}): {where}"
    # The same with a marker grad: whose value comes out, the forward ops' (2) or grad's (100)?
    calls = []
    marked = float(run(marked_double(calls), tf.constant(1.0)))
    assert calls, f"forward mode {context} no longer calls grad at all: {where}"
    assert marked == expected_marked, (
        f"forward mode {context} of 2x with a grad returning 100: now {marked}, not {expected_marked}: {where}"
    )


@pytest.mark.parametrize(
    "context, error, message",
    [
        ("eager", ValueError, "expected to return 1 gradients, but returned 2"),
        ("inside tf.function", Exception, "Expected 2 but received 3"),
        ("around tf.function", ValueError, "Num gradients 3 generated for op"),
    ],
)
def test_forward_mode_raises_grads_errors_even_where_it_drops_its_result(context, error, message):
    where = f"{SNIPPETS}/09_forward_mode_skips_custom_gradient.py, {PAGE} section #forward-mode"
    caught = raised(lambda: FORWARD_CONTEXTS[context](docstring_log1pexp([], extra=True), tf.constant(100.0)))
    assert isinstance(caught, error) and message in str(caught), (
        f"forward mode {context}: a grad with one gradient too many now gives {caught!r}, not {error.__name__} "
        f"'{message}' ({where})"
    )


# --- 06: @tf.custom_gradient on grad itself (tensorflow#34503, #36168) ------------------------------------


def sin_with_decorated_grad(calls, opaque=False):
    @tf.custom_gradient
    def sin(x):
        @tf.custom_gradient
        def grad(dy):
            def grad_grad(ddy):
                calls.append(1)
                return ddy * 100.0

            cos = tf.stop_gradient(tf.cos(x)) if opaque else tf.cos(x)
            return dy * cos, grad_grad

        return tf.sin(x), grad

    return sin


def first_and_second(f, x):
    """Nested tapes as on the page: dy is the tape's own 1, not watched."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x)
    return first, outer.gradient(first, x)


def test_decorated_grad_eager_ignores_grad_grad_and_autodiffs_the_body():
    calls = []
    f = sin_with_decorated_grad(calls)
    first, second = first_and_second(f, tf.constant(1.0))
    where = f"{SNIPPETS}/06_custom_gradient_on_grad.py, {PAGE} section #decorating-grad"
    assert calls == [], f"eager mode now calls grad_grad ({len(calls)} times) ({where})"
    assert second is not None and math.isclose(float(second), -math.sin(1.0), rel_tol=1e-6), (
        f"eager mode now gives {numbers(second)} instead of autodiff's -sin(1) ({where})"
    )
    # The -sin(1) comes from differentiating grad's body: make the body opaque and it is gone.
    calls2 = []
    _, second2 = first_and_second(sin_with_decorated_grad(calls2, opaque=True), tf.constant(1.0))
    assert second2 is None and calls2 == [], f"eager mode with an opaque grad body: {numbers(second2)} ({where})"


def test_decorated_grad_eager_with_dy_watched_gives_grad_grad_for_dy_and_none_for_x():
    calls = []
    first, second, wrt_dy = derivatives(sin_with_decorated_grad(calls), tf.constant(1.0))
    where = f"{SNIPPETS}/06_custom_gradient_on_grad.py, {PAGE} section #decorating-grad"
    assert second is None, f"eager, dy watched: d/dx is now {numbers(second)}, not None ({where})"
    assert float(wrt_dy) == 100.0, f"eager, dy watched: d/d dy is now {numbers(wrt_dy)}, not grad_grad's 100 ({where})"
    assert calls, f"eager, dy watched: grad_grad is no longer called ({where})"


def test_decorated_grad_in_tf_function_calls_grad_grad_and_gives_none():
    calls = []
    f = sin_with_decorated_grad(calls)
    first, second = tf.function(lambda x: first_and_second(f, x))(tf.constant(1.0))
    where = f"{SNIPPETS}/06_custom_gradient_on_grad.py, {PAGE} section #decorating-grad"
    assert math.isclose(float(first), math.cos(1.0), rel_tol=1e-6)
    assert second is None, f"tf.function now gives {numbers(second)} instead of None ({where})"
    assert len(calls) == 1, (
        f"tf.function now calls grad_grad {len(calls)} times while tracing, page says once ({where})"
    )


def test_decorated_grad_snippet_output():
    out = run_snippet(f"{SNIPPETS}/06_custom_gradient_on_grad.py").stdout
    for line in [
        "eager              second derivative: -0.8415  grad_grad called 0 time(s)",
        "tf.function        second derivative: None     grad_grad called 1 time(s)",
        "eager, dy watched  second derivative: None     grad_grad called 1 time(s)",
        "gradient w.r.t. dy: 100.0000",
    ]:
        assert line in out, (
            f"{SNIPPETS}/06_custom_gradient_on_grad.py no longer prints {line!r}; TensorFlow changed how a "
            f"decorated grad is recorded: update {PAGE} section #decorating-grad\n{out}"
        )


# --- 07: no custom second order needed ---------------------------------------------------------------------


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


@pytest.mark.parametrize("mode", MODES)
def test_nested_tapes_differentiate_a_grad_made_of_tf_ops(mode):
    first, second = in_mode(mode, lambda x: first_and_second(log1pexp, x), tf.constant(X))
    s = sigmoid(X)
    np.testing.assert_allclose(
        numbers(second),
        s * (1 - s),
        rtol=1e-12,
        err_msg=f"{mode}: nested tapes on log1pexp ({SNIPPETS}/07_no_custom_second_order_needed.py)",
    )


@pytest.mark.parametrize("mode", MODES)
def test_nested_tapes_on_log1pexp_are_nan_at_100(mode):
    _, second = in_mode(mode, lambda x: first_and_second(log1pexp, x), tf.constant([100.0]))
    assert np.isnan(numbers(second)[0]), (
        f"{mode}: second derivative of log1pexp at x = 100 is now {numbers(second)}, not nan; "
        f"update {SNIPPETS}/07_no_custom_second_order_needed.py and {PAGE} section #no-custom-second-order"
    )


# --- 08: a custom-gradient function passed as a tf.function argument loses its decorator -------------------


def test_custom_gradient_function_as_tf_function_argument_is_unwrapped():
    @tf.custom_gradient
    def softplus(x):
        return tf.math.softplus(x), lambda dy: dy * tf.sigmoid(x)

    seen = []

    @tf.function
    def peek(f, x):
        seen.append(type(f(x)).__name__)
        return x

    peek(softplus, tf.constant(0.0))
    where = f"{SNIPPETS}/08_custom_gradient_function_as_argument.py, {PAGE} section #tf-function-argument-trap"
    assert seen == ["tuple"], (
        f"inside tf.function a custom-gradient function passed as an argument now returns {seen}, "
        f"not the raw (value, grad) tuple: TensorFlow keeps the decorator now ({where})"
    )
    out = run_snippet(f"{SNIPPETS}/08_custom_gradient_function_as_argument.py").stdout
    assert "tf.function, f in closure:  0.5000" in out, out
    assert "TypeError: Cannot convert the argument `type_value`: <function grad> to a TensorFlow DType." in out, (
        f"the error for a custom-gradient function passed as a tf.function argument changed ({where}):\n{out}"
    )
