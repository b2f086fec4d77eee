"""Gradient surgery (docs/cookbook/gradient-surgery.md#clip-scale-gradient-backward), checked on TensorFlow itself.

The built-in half: tf.clip_by_value on the value changes the forward pass and zeroes the gradient outside the
range; the one-liners' traps (the stop_gradient scaling's rounding, nan of dy / norm(dy) at dy = 0). The recipe's
half: each function of the `recipe` section keeps the value and gives its rule, the proof's rows are OK where the
page says and MISMATCH where it says (forward mode, the order 2 of scaling).
"""

from __future__ import annotations

import keras
import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import DIR, blocks, gradient, recipe, second_derivative, stdout_of

PAGE = "docs/cookbook/gradient-surgery.md"
SNIPPET = "41_gradient_surgery.py"
X = [0.3, -0.8, 1.2]  # 3 x**2 = [0.27, 1.92, 4.32]


def test_clip_by_value_on_the_value_changes_the_value_and_zeroes_the_gradient():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.clip_by_value(x, -1.0, 1.0) ** 3)
    g = tape.gradient(y, x).numpy()
    assert y.numpy() == 3.0 and g.tolist() == [3.0, 0.0, 0.0], (
        f"tf.clip_by_value's value and gradient at [1, 2, 3] are {y.numpy()}, {g}, not 3.0, [3, 0, 0]: rewrite "
        f"{PAGE}#clip-scale-gradient-backward-problem (and .ru.md)"
    )
    out = stdout_of("40_clip_value_not_gradient.py")
    assert "tf.clip_by_value on x: value  3.0, gradient [3. 0. 0.]" in out, out
    assert "wanted: value 36.0, gradient [1. 1. 1.]" in out, out


def surgery(ns):
    """(function at the point, its rule for what arrives there)."""
    return [
        (ns["clip_gradient"](-1.0, 1.0), lambda g: tf.clip_by_value(g, -1.0, 1.0)),
        (ns["clip_gradient_norm"](2.0), lambda g: tf.clip_by_norm(g, 2.0)),
        (ns["scale_gradient"](0.5), lambda g: 0.5 * g),
        (ns["normalize_gradient"], lambda g: g / tf.norm(g)),
    ]


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_each_recipe_keeps_the_value_and_follows_its_rule(dtype):
    x = tf.constant(X, dtype)
    for f, rule in surgery(recipe(SNIPPET)):
        np.testing.assert_array_equal(f(x).numpy(), x.numpy())  # tf.identity: the value exactly
        got = gradient(lambda x, f=f: f(x) ** 3, x).numpy()
        np.testing.assert_allclose(got, rule(3 * x**2).numpy(), rtol=1e-6, err_msg=f"{f.__name__}")


def test_normalize_gradient_is_zero_where_no_gradient_arrives():
    normalize = recipe(SNIPPET)["normalize_gradient"]
    g = gradient(lambda x: 0.0 * normalize(x), tf.constant(X)).numpy()
    assert (g == 0).all(), f"normalize_gradient with dy = 0 gives {g}, not 0"
    zero = tf.zeros(3)
    assert np.isnan((zero / tf.norm(zero)).numpy()).all(), "dy / tf.norm(dy) at 0 is no longer nan: update the page"


def test_forward_mode_gives_the_unmodified_derivative():
    scale = recipe(SNIPPET)["scale_gradient"](0.5)
    x = tf.constant(X, tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = scale(x) ** 3
    np.testing.assert_allclose(
        acc.jvp(y).numpy(), 3 * x.numpy() ** 2, err_msg=f"{PAGE}#clip-scale-gradient-backward-proof"
    )


def test_order_2_crosses_the_point_again_for_the_recipe_and_the_stop_gradient_trick():
    scale = recipe(SNIPPET)["scale_gradient"](0.5)
    x = tf.constant(1.2, tf.float64)
    for name, f in [
        ("scale_gradient", lambda x: scale(x) ** 3),
        ("the stop_gradient trick", lambda x: (x * 0.5 + tf.stop_gradient(x) * 0.5) ** 3),
    ]:
        first, second = second_derivative(f, x)
        assert np.isclose(first, 0.5 * 3 * 1.2**2) and np.isclose(second, 0.5 * 0.5 * 6 * 1.2), (
            f"{name}: order 1 {first}, order 2 {second}; the page says 2.16 and 1.80 (0.5 * 0.5 * 6x): rewrite "
            f"{PAGE}#clip-scale-gradient-backward-proof and -alternatives (and .ru.md)"
        )


def forward_over_reverse(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0, x.dtype)) as acc:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = inner.gradient(y, x)
    return float(acc.jvp(first))


def test_forward_over_reverse_skips_the_recipe_at_order_2_but_not_the_trick():
    scale = recipe(SNIPPET)["scale_gradient"](0.5)
    x = tf.constant(1.2, tf.float64)
    recipe_2 = forward_over_reverse(lambda x: scale(x) ** 3, x)
    trick_2 = forward_over_reverse(lambda x: (x * 0.5 + tf.stop_gradient(x) * 0.5) ** 3, x)
    assert np.isclose(recipe_2, 0.5 * 6 * 1.2) and np.isclose(trick_2, 0.5 * 0.5 * 6 * 1.2), (
        f"forward over reverse at order 2: scale_gradient {recipe_2}, the trick {trick_2}; the page says 3.60 and "
        f"1.80: rewrite {PAGE}#clip-scale-gradient-backward-proof and -alternatives (and .ru.md)"
    )
    # through the point only partly: s(x) * x has 0.5 + 0.5, not 0.5 * 0.5 * 2
    _, partly = second_derivative(lambda x: scale(x) * x, x)
    assert np.isclose(partly, 1.0), partly


def test_stop_gradient_scaling_rounds_the_value_in_float32():
    x = tf.constant([0.1, 0.2, 0.5])
    off = (x * 0.1 + tf.stop_gradient(x) * 0.9 - x).numpy()
    assert off[0] != 0 and off[1] != 0, f"x * 0.1 + stop_gradient(x) * 0.9 is x exactly now ({off}): update {PAGE}"
    assert ((x * 0.5 + tf.stop_gradient(x) * 0.5) == x).numpy().all()
    g = gradient(lambda x: x * 0.1 + tf.stop_gradient(x) * 0.9, x).numpy()
    np.testing.assert_allclose(g, [0.1, 0.1, 0.1])


def test_clipping_the_final_gradient_is_not_clipping_at_a_point():
    clip = recipe(SNIPPET)["clip_gradient"](-1.0, 1.0)
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        plain = tf.reduce_sum((2 * x) ** 3)
        at_point = tf.reduce_sum(clip(2 * x) ** 3)
    assert tape.gradient(at_point, x).numpy().tolist() == [2.0, 2.0, 2.0]
    g = tape.gradient(plain, x)
    keras.optimizers.SGD(1.0, clipvalue=1.0).apply_gradients([(g, x)])
    assert (np.array([1.0, 2.0, 3.0]) - x.numpy()).tolist() == [1.0, 1.0, 1.0], (
        f"SGD(clipvalue=1) no longer clips each gradient entry to 1: update {PAGE}#clip-scale-gradient-backward-alternatives"
    )
    out = stdout_of("42_surgery_alternatives.py")
    assert "order 2 1.80 (reverse)\n  forward over reverse: order 2 1.80" in out, out
    assert "clipped at u, then times 2: [2. 2. 2.]" in out and "SGD(1.0, clipvalue=1.0) moves x by [1. 1. 1.]" in out, (
        out
    )


def test_gradient_surgery_proof():
    out = stdout_of(SNIPPET)
    found = blocks(out)
    saved = found.pop()  # the SavedModel rows, one per function
    assert set(saved.values()) == {"OK"} and len(saved) == 4, f"{DIR}/{SNIPPET}: {saved}"
    assert len(found) == 4, f"{DIR}/{SNIPPET}: expected 4 checks (clip, clip by norm, normalize, scale):\n{out}"
    for rows in found:
        assert rows.pop("forward mode order 1").startswith("MISMATCH"), (
            f"{DIR}/{SNIPPET}: forward mode now follows the rule: update {PAGE}#clip-scale-gradient-backward-proof"
        )
    scaled = found[3]
    for context in ("eager", "tf.function", "tf.gradients"):
        assert scaled.pop(f"{context} order 2").startswith("MISMATCH"), f"{DIR}/{SNIPPET}: {context} order 2"
    for rows in found:
        assert set(rows.values()) == {"OK"}, f"{DIR}/{SNIPPET}: {rows}"
    reloaded = out.split("in a fresh process:")[1]
    for name in ("clipped", "norm_clipped", "normalized", "scaled"):
        assert f"  {name}: SavedModel order 1: error" in reloaded and f"{name}: SavedModel order 1: error" in out
    assert reloaded.count(" OK") == 4, reloaded
    assert "order 2 1.80 = 0.5 * 0.5 * 6x" in out, out
    assert "forward over reverse: order 2 3.60 = 0.5 * 6x" in out, out
