"""RegisterGradient vs custom_gradient: TensorFlow still behaves the way the page says.

These tests run TensorFlow in-process and check the behaviour itself (not the printed text): where a
gradient_override_map is applied and where it is silently ignored, how tf.custom_gradient is built in graph
and in eager mode, and the errors of the RegisterGradient path. Every registered name is unique (uuid),
because the gradient registry is process-wide.
"""

import math
import uuid

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.framework import ops

PAGE = "docs/registergradient-vs-custom-gradient.md"
X = [0.2, 1.7]
W = [1.0, 2.0]
STRAIGHT_THROUGH = np.array(W)  # dL/dx when round() passes dL/dy = W through


def register_straight_through() -> str:
    name = f"StraightThroughRound_{uuid.uuid4().hex}"
    tf.RegisterGradient(name)(lambda op, dy: dy)
    return name


def round_override(name):
    def fn(x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"Round": name}):
            return tf.round(x)

    return fn


@tf.custom_gradient
def round_ste(x):
    return tf.round(x), lambda dy: dy


def loss(fn, x):
    return tf.reduce_sum(tf.constant(W) * fn(x))


def eager_tape(fn, x):
    with tf.GradientTape() as t:
        t.watch(x)
        value = loss(fn, x)
    return t.gradient(value, x)


def tape_outside_function(fn, x):
    return eager_tape(tf.function(fn), x)


def tape_inside_function(fn, x):
    return tf.function(lambda x: eager_tape(fn, x))(x)


def tape_inside_around_nested(fn, x):  # the op is built in a nested tf.function the tape records as a call
    return tf.function(lambda x: eager_tape(tf.function(fn), x))(x)


def tape_in_tf1_graph(fn, x):
    with tf.Graph().as_default():
        x = tf.constant(x.numpy())
        dx = eager_tape(fn, x)
        if dx is None:
            return None
        with tf.compat.v1.Session() as sess:
            return sess.run(dx)


def tf_gradients_in_function(fn, x):
    return tf.function(lambda x: tf.gradients(loss(fn, x), x)[0])(x)


def tf_gradients_in_graph(fn, x):
    with tf.Graph().as_default():
        x = tf.constant(x.numpy())
        dx = tf.gradients(loss(fn, x), x)[0]
        if dx is None:
            return None
        with tf.compat.v1.Session() as sess:
            return sess.run(dx)


# context -> is a RegisterGradient override applied there? (the table printed by 04_where_override_applies.py)
OVERRIDE_APPLIED = {
    eager_tape: False,
    tape_outside_function: True,
    tape_inside_function: False,
    tape_inside_around_nested: True,
    tape_in_tf1_graph: False,
    tf_gradients_in_function: True,
    tf_gradients_in_graph: True,
}


@pytest.mark.parametrize("context", list(OVERRIDE_APPLIED), ids=lambda c: c.__name__)
def test_where_a_registered_override_applies(context):
    dx = context(round_override(register_straight_through()), tf.constant(X))
    if OVERRIDE_APPLIED[context]:
        assert dx is not None, (
            f"gradient_override_map is no longer applied in {context.__name__} (dL/dx is None): "
            f"update the table on {PAGE} and snippets/registergradient_vs_custom_gradient/04_where_override_applies.py"
        )
        np.testing.assert_allclose(np.asarray(dx), STRAIGHT_THROUGH)
    else:
        assert dx is None, (
            f"gradient_override_map is now APPLIED in {context.__name__} (dL/dx = {np.asarray(dx)}), the page says "
            f"it is silently ignored there: update {PAGE} and its snippet 04"
        )


@pytest.mark.parametrize("context", list(OVERRIDE_APPLIED), ids=lambda c: c.__name__)
def test_custom_gradient_applies_everywhere(context):
    dx = context(round_ste, tf.constant(X))
    assert dx is not None, f"tf.custom_gradient is no longer applied in {context.__name__}"
    np.testing.assert_allclose(np.asarray(dx), STRAIGHT_THROUGH)


def test_built_in_round_gradient_is_none():
    # the whole demonstration relies on Round's registered gradient returning None
    assert eager_tape(tf.round, tf.constant(X)) is None


def test_override_map_sets_gradient_op_type_attr_and_keeps_op_type():
    name = register_straight_through()
    with tf.Graph().as_default() as g:
        with g.gradient_override_map({"Round": name}):
            y = tf.round(tf.constant(X))
    assert y.op.type == "Round"
    assert y.op.get_attr("_gradient_op_type").decode() == name


def test_custom_gradient_in_graph_mode_is_identity_n_with_registered_name():
    graph = tf.function(round_ste).get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    marked = [op for op in graph.get_operations() if "_gradient_op_type" in op.node_def.attr]
    assert [op.type for op in marked] == ["IdentityN"], (
        "tf.custom_gradient in graph mode no longer builds exactly one IdentityN with _gradient_op_type; "
        f"found {[op.type for op in marked]}: update section 'How tf.custom_gradient is built' on {PAGE}"
    )
    name = marked[0].get_attr("_gradient_op_type").decode()
    assert name.startswith("CustomGradient-")
    assert ops.gradient_registry.lookup(name) is not None
    assert [t.op.type for t in marked[0].inputs] == ["Round", "Placeholder"]  # outputs first, then inputs


def test_custom_gradient_each_trace_registers_a_new_name():
    def count():
        return sum(n.startswith("CustomGradient-") for n in ops.gradient_registry.list())

    f = tf.function(lambda x: round_ste(x))
    before = count()
    f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    assert count() - before == 2


def test_custom_gradient_in_eager_mode_registers_nothing_and_calls_grad_lazily():
    calls = []

    @tf.custom_gradient
    def f(x):
        def grad(dy):
            calls.append(dy.numpy())
            return dy

        return tf.round(x), grad

    before = set(ops.gradient_registry.list())
    x = tf.constant(X)
    f(x)  # no tape
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(f, x)
    assert calls == [], "grad was called during the forward pass"
    dx = tape.gradient(value, x)
    assert len(calls) == 1 and np.allclose(calls[0], W)
    np.testing.assert_allclose(dx.numpy(), STRAIGHT_THROUGH)
    assert set(ops.gradient_registry.list()) == before, "eager tf.custom_gradient registered a gradient name"


def test_registering_a_name_twice_raises_key_error():
    name = register_straight_through()
    with pytest.raises(KeyError, match=f"Registering two gradient with name '{name}'!"):
        tf.RegisterGradient(name)(lambda op, dy: dy)


def test_registering_a_built_in_op_type_raises_key_error():
    with pytest.raises(KeyError, match="Registering two gradient with name 'Round'!"):
        tf.RegisterGradient("Round")(lambda op, dy: dy)


@pytest.mark.parametrize("key", ["round", "tf.round", "ROUND"])
def test_wrong_op_type_key_is_silently_ignored(key):
    name = register_straight_through()
    with tf.Graph().as_default() as g:
        x = tf.constant(X)
        with g.gradient_override_map({key: name}):
            y = tf.round(x)
        assert "_gradient_op_type" not in y.op.node_def.attr
        assert tf.gradients(y, x)[0] is None  # the built-in gradient, no error


def test_square_key_does_not_reach_pow():
    name = f"TimesTen_{uuid.uuid4().hex}"
    tf.RegisterGradient(name)(lambda op, dy: [10.0 * dy] + [None] * (len(op.inputs) - 1))
    with tf.Graph().as_default() as g:
        x = tf.constant(3.0)
        with g.gradient_override_map({"Square": name}):
            y = x**2
        assert y.op.type == "Pow"
        with tf.compat.v1.Session() as sess:
            assert sess.run(tf.gradients(y, x)[0]) == pytest.approx(6.0)


def test_unregistered_gradient_name_fails_at_tf_gradients_blaming_the_op():
    with tf.Graph().as_default() as g:
        x = tf.constant(X)
        with g.gradient_override_map({"Round": f"NeverRegistered_{uuid.uuid4().hex}"}):
            y = tf.round(x)  # no error at construction
        with pytest.raises(LookupError, match=r"No gradient defined for operation\s*'Round' \(op type: Round\)"):
            tf.gradients(y, x)


def test_wrong_number_of_gradients_raises_value_error():
    name = f"PowOneGradient_{uuid.uuid4().hex}"
    tf.RegisterGradient(name)(lambda op, dy: 2.0 * op.inputs[0] * dy)
    with tf.Graph().as_default() as g:
        x = tf.constant(3.0)
        with g.gradient_override_map({"Pow": name}):
            y = x**2
        with pytest.raises(ValueError, match=r"Num gradients 1 generated for op name(.|\n)*do not match num inputs 2"):
            tf.gradients(y, x)


def test_second_order_through_both():
    name = f"SoftplusBySigmoid_{uuid.uuid4().hex}"
    tf.RegisterGradient(name)(lambda op, dy: dy * tf.sigmoid(op.inputs[0]))
    with tf.Graph().as_default() as g:
        x = tf.constant(0.0)
        with g.gradient_override_map({"Softplus": name}):
            y = tf.math.softplus(x)
        d1 = tf.gradients(y, x)[0]
        d2 = tf.gradients(d1, x)[0]
        with tf.compat.v1.Session() as sess:
            assert sess.run([d1, d2]) == pytest.approx([0.5, 0.25], abs=1e-6)

    @tf.custom_gradient
    def log1pexp(x):
        return tf.math.log(1.0 + tf.exp(x)), lambda dy: dy * tf.sigmoid(x)

    x = tf.constant(0.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        d1 = inner.gradient(y, x)
    d2 = outer.gradient(d1, x)
    assert [d1.numpy(), d2.numpy()] == pytest.approx([0.5, 0.25], abs=1e-6)


@pytest.mark.parametrize("context", ["tf.Graph", "tf.function"])
def test_a_registered_gradient_that_drops_an_upstream_gradient_is_wrong_only_at_second_order(context):
    """docs/registergradient-vs-custom-gradient.md#several-outputs: the rule of tensorflow#7403."""
    suffix = uuid.uuid4().hex
    both, dropping = f"UsesBoth_{suffix}", f"DropsSecond_{suffix}"

    @tf.RegisterGradient(both)
    def _both(op, dy_sin, dy_cos):
        return dy_sin * tf.cos(op.inputs[0]) - dy_cos * tf.sin(op.inputs[0])

    @tf.RegisterGradient(dropping)
    def _dropping(op, dy_sin, dy_cos):
        return dy_sin * op.outputs[1]

    def derivatives(name, x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"PyFunc": name}):
            sin_x, _ = tf.numpy_function(lambda v: (np.sin(v), np.cos(v)), [x], [tf.float64, tf.float64])
        first = tf.gradients(sin_x, x)[0]
        return first, tf.gradients(first, x)[0]

    def run(name):
        if context == "tf.function":
            return [float(t) for t in tf.function(derivatives)(name, tf.constant(0.5, tf.float64))]
        with tf.Graph().as_default():
            tensors = derivatives(name, tf.constant(0.5, tf.float64))
            with tf.compat.v1.Session() as session:
                return [float(v) for v in session.run(tensors)]

    fix = "update docs/registergradient-vs-custom-gradient.md#several-outputs (and .ru.md)"
    assert run(both) == pytest.approx([math.cos(0.5), -math.sin(0.5)]), f"{context}: using both upstreams; {fix}"
    first, second = run(dropping)
    assert first == pytest.approx(math.cos(0.5)), f"{context}: dropping dy_cos now breaks the first order; {fix}"
    assert second == 0.0, f"{context}: dropping dy_cos now gives a second derivative of {second}, not 0; {fix}"


def test_run_functions_eagerly_makes_a_tape_outside_the_function_ignore_the_override():
    """docs/registergradient-vs-custom-gradient.md#where-override-applies, the last row of the table."""
    name = f"PassThroughRound_{uuid.uuid4().hex}"

    @tf.RegisterGradient(name)
    def _pass_through(op, dy):
        return dy

    @tf.function
    def round_override(x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"Round": name}):
            return tf.round(x)

    def tape_outside(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = round_override(x)
        return tape.gradient(y, x)

    x = tf.constant([0.2, 1.7])
    fix = "update docs/registergradient-vs-custom-gradient.md (and .ru.md) #decision-table and #where-override-applies"
    assert list(tape_outside(x).numpy()) == [1.0, 1.0], f"a tape outside no longer applies the override; {fix}"
    tf.config.run_functions_eagerly(True)
    try:
        ignored = tape_outside(x)
    finally:
        tf.config.run_functions_eagerly(False)
    assert ignored is None, f"with run_functions_eagerly(True) a tape outside now gets {ignored}; {fix}"
