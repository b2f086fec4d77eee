"""The recipe of docs/cookbook/memory.md (#recompute-memory), checked on TensorFlow itself.

What a tape keeps is counted as the page counts it: weak references to a block's intermediates, alive after
`gc.collect()` only while something (the tape) holds them. Each test of the built-in behaviour names the section to
rewrite when TensorFlow changes it; the recipe tests run the page's `recipe` section (not a copy).
"""

from __future__ import annotations

import gc
import weakref

import keras
import numpy as np
import pytest
import tensorflow as tf

from tests.cookbook.test_cookbook import blocks, recipe, stdout_of

PAGE = "docs/cookbook/memory.md"
TRANSPOSE = "recompute_grad tried to transpose grad"
X = [0.5, -1.0, 2.0]


class Block:
    """7 sin layers (with a weight each, or none); counts its runs and its live intermediates."""

    __name__ = "block"  # tf.recompute_grad's error message reads it (a Keras model has none: AttributeError)

    def __init__(self, dtype=tf.float64, weights=True):
        self.weights = [tf.Variable(0.9 + 0.1 * i, dtype=dtype) for i in range(7)] if weights else []
        self.refs, self.runs = [], 0

    def __call__(self, h):
        self.runs += 1
        for i in range(7):
            h = tf.sin(self.weights[i] * h if self.weights else h)
            self.refs.append(weakref.ref(h))
        return tf.sin(h)

    def alive(self) -> int:
        gc.collect()
        return sum(ref() is not None for ref in self.refs)


def kept_and_gradient(block, f, x):
    """(intermediates alive after the forward pass under a tape, d sum f / d [x, weights])."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        block.refs.clear()
        y = tf.reduce_sum(f(x))
        alive = block.alive()
    return alive, tape.gradient(y, [x, *block.weights])


def second(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x))
        dx = tf.reduce_sum(inner.gradient(y, x))
    return outer.gradient(dx, x)


def jvp(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = f(x)
    return acc.jvp(y)


def naive(block):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = block(x)
            return tape.gradient(y, x, output_gradients=dy)

        return block(x), grad

    return f


# The problem (#recompute-memory-problem)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_a_tape_keeps_the_intermediates_of_a_plain_block_and_of_a_naive_custom_gradient(dtype):
    block = Block(dtype, weights=False)
    x = tf.constant(X, dtype)
    plain, want = kept_and_gradient(block, block, x)
    assert plain == 7, (
        f"a tape keeps {plain} of a plain block's 7 intermediates: rewrite {PAGE}#recompute-memory-problem"
    )
    kept, got = kept_and_gradient(block, naive(block), x)
    assert kept == 7, (
        f"a naive @tf.custom_gradient keeps {kept} of 7 now, not all: tf.custom_gradient stopped recording its "
        f"function's ops; rewrite {PAGE}#recompute-memory-why (and .ru.md)"
    )
    kept, rg = kept_and_gradient(block, tf.recompute_grad(block), x)
    assert kept == 0, f"tf.recompute_grad keeps {kept} of 7 intermediates: update {PAGE}#recompute-memory-problem"
    np.testing.assert_allclose(got[0].numpy(), want[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(rg[0].numpy(), want[0].numpy(), rtol=1e-6)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_recompute_grad_raises_at_order_2_in_a_graph_and_in_forward_mode(dtype):
    block = Block(dtype, weights=False)
    rg = tf.recompute_grad(block)
    x = tf.constant(X, dtype)
    np.testing.assert_allclose(second(rg, x).numpy(), second(block, x).numpy(), rtol=1e-5)  # eager: right
    for name, run in [
        ("order 2 in a tf.function", tf.function(lambda x: second(rg, x))),
        ("tf.gradients", tf.function(lambda x: tf.gradients(tf.gradients(tf.reduce_sum(rg(x)), x)[0], x)[0])),
        ("forward mode", lambda x: jvp(rg, x)),
        ("forward mode around a tf.function", lambda x: jvp(tf.function(rg), x)),
    ]:
        with pytest.raises(NotImplementedError, match=TRANSPOSE):
            run(x)
            pytest.fail(f"tf.recompute_grad works now ({name}, {dtype.name}): rewrite {PAGE}#recompute-memory")


def keras_block():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.layers.Dense(3, activation="tanh", dtype="float64") for _ in range(3)])
    model.build((None, 3))
    return model


def penalty_gradient(model, f):
    x = tf.constant(X, tf.float64)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x[None]))
        penalty = tf.reduce_sum(inner.gradient(y, x) ** 2)
    return outer.gradient(penalty, model.trainable_variables)


def test_recompute_grad_of_a_keras_block_raises_at_order_2_in_eager_mode():
    model = keras_block()
    with pytest.raises(AttributeError, match="has no attribute '__name__'"):
        penalty_gradient(model, tf.recompute_grad(model))
        pytest.fail(f"tf.recompute_grad(model) works at order 2 now: rewrite {PAGE}#recompute-memory")

    def call_model(h):
        return model(h)

    with pytest.raises(NotImplementedError, match=TRANSPOSE):
        penalty_gradient(model, tf.recompute_grad(call_model))


# The recipe (#recompute-memory-recipe, #recompute-memory-proof)


def checkpoint():
    return recipe("62_checkpoint_every_order.py")["checkpoint"]


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_checkpoint_keeps_nothing_at_order_1_runs_the_block_twice_and_is_right(dtype):
    block = Block(dtype)
    x = tf.constant(X, dtype)
    _, want = kept_and_gradient(block, block, x)
    block.runs = 0
    kept, got = kept_and_gradient(block, checkpoint()(block), x)
    assert kept == 0, f"checkpoint(block) keeps {kept} of 7 intermediates: {PAGE}#recompute-memory-recipe"
    assert block.runs == 2, f"checkpoint(block) ran the block {block.runs} times at order 1, not 2"
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5)


def test_checkpoint_at_order_2_keeps_the_recomputation_while_differentiating_it():
    block = Block()
    f = checkpoint()(block)
    x = tf.constant(X, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            block.refs.clear()
            y = tf.reduce_sum(f(x))
        assert block.alive() == 0
        dx = tf.reduce_sum(inner.gradient(y, x))
        assert block.alive() == 7, "the outer tape no longer keeps the recomputation: update #recompute-memory-recipe"
    got = outer.gradient(dx, [x, *block.weights])
    want_block = Block()
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(want_block(x))
        dx = tf.reduce_sum(inner.gradient(y, x))
    want = outer.gradient(dx, [x, *want_block.weights])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10)
    graph = tf.function(lambda x: second(f, x), autograph=False)
    np.testing.assert_allclose(graph(x).numpy(), want[0].numpy(), rtol=1e-10)


def test_checkpoint_of_a_keras_block_at_order_2_and_forward_mode():
    model = keras_block()
    want = penalty_gradient(model, model)
    got = penalty_gradient(model, checkpoint()(model))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10)
    block = Block()
    f, x = checkpoint()(block), tf.constant(X, tf.float64)
    np.testing.assert_allclose(jvp(tf.function(f, autograph=False), x).numpy(), jvp(block, x).numpy(), rtol=1e-10)
    with pytest.raises(NotImplementedError, match=TRANSPOSE):
        jvp(f, x)
        pytest.fail(f"forward mode of checkpoint(block) works in eager mode now: update {PAGE}#recompute-memory-proof")


def test_checkpoint_proof():
    out = stdout_of("62_checkpoint_every_order.py")
    rows = blocks(out)[0]
    assert rows.pop("forward mode order 1").startswith(f"MISMATCH NotImplementedError: {TRANSPOSE}"), out
    assert set(rows.values()) == {"OK"}, f"snippets/cookbook/62_checkpoint_every_order.py: {rows}"
    assert "checkpointed: SavedModel order 1: error" in out, out
    assert "checkpoint(block) kept 0 of 7;" in out and "block             kept 7 of 7;" in out, out
    lines = [line for line in out.splitlines() if "d penalty / d first weight" in line]
    assert len(lines) == 2 and lines[0].split()[-1] == lines[1].split()[-1], out


# Alternatives (#recompute-memory-alternatives)


def test_stop_gradient_forward_keeps_the_intermediates_of_a_block_with_weights():
    out = stdout_of("63_checkpoint_alternatives.py")
    assert "a block without weights: intermediates kept 0 of 7" in out, out
    assert "a block with 7 weights: intermediates kept 7 of 7" in out, (
        f"tf.stop_gradient of the input now hides a block's weights too: update {PAGE}#recompute-memory-alternatives"
    )
    assert "forward mode, eager: [0. 0. 0.]" in out, out
    whole, by_row = (line.split(":")[1] for line in out.splitlines() if line.startswith(("  whole", "  row")))
    assert whole.strip() == by_row.strip(), out
    out = stdout_of("60_block_memory.py")
    assert "tf.recompute_grad          intermediates kept: 0 of 7" in out, out
    assert "naive @tf.custom_gradient  intermediates kept: 7 of 7" in out, out
    out = stdout_of("61_recompute_grad_limits.py")
    assert "tf.recompute_grad(model): AttributeError: 'Sequential' object has no attribute '__name__'" in out, out


# What runs twice (#recompute-memory-alternatives, the dropout and BatchNormalization item)


def value_and_gradient(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y, tape.gradient(y, x)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_a_recomputed_dropout_draws_another_mask_and_a_stateless_one_with_an_outside_seed_does_not(dtype):
    tf.random.set_seed(0)
    x = tf.ones([1000], dtype)  # dropout(x) = 2 * mask * x: the gradient of the forward's mask is y / x
    dropout = keras.layers.Dropout(0.5, seed=1, dtype=dtype.name)
    seed = tf.random.uniform([2], maxval=2**31 - 1, dtype=tf.int32)
    where = f"{PAGE}#recompute-memory-alternatives (dropout in the block)"
    for name, block in [
        ("tf.nn.dropout", lambda h: tf.nn.dropout(h, 0.5)),
        ("keras Dropout", lambda h: dropout(h, training=True)),
    ]:
        for how, f in [("tf.recompute_grad", tf.recompute_grad(block)), ("checkpoint", checkpoint()(block))]:
            y, g = value_and_gradient(f, x)
            error = np.abs(g.numpy() - y.numpy() / x.numpy()).max()
            assert error == 2, f"{name} under {how} ({dtype.name}): error {error}, not 2 (a new mask): update {where}"
    stateless = lambda h: tf.nn.experimental.stateless_dropout(h, 0.5, seed=seed)  # noqa: E731
    for f in (tf.recompute_grad(stateless), checkpoint()(stateless)):
        y, g = value_and_gradient(f, x)
        np.testing.assert_array_equal(g.numpy(), y.numpy() / x.numpy())


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_a_recomputed_batch_normalization_updates_its_moving_statistics_twice(dtype):
    def moving_mean(wrap, outside=False):
        dense = keras.layers.Dense(1, use_bias=False, kernel_initializer="ones", dtype=dtype.name)
        norm = keras.layers.BatchNormalization(momentum=0.5, dtype=dtype.name)
        if outside:
            f = lambda h: norm(wrap(dense)(h), training=True)  # noqa: E731
        else:
            f = wrap(lambda h: norm(dense(h), training=True))
        value_and_gradient(f, tf.constant([[1.0], [3.0]], dtype))  # batch mean 2, momentum 0.5
        return float(norm.moving_mean.numpy()[0])

    where = f"{PAGE}#recompute-memory-alternatives (BatchNormalization in the block)"
    assert moving_mean(lambda f: f) == 1.0
    assert moving_mean(tf.recompute_grad) == 1.5, f"tf.recompute_grad updates the moving mean once now: {where}"
    assert moving_mean(checkpoint()) == 1.5, f"checkpoint(block) updates the moving mean once now: {where}"
    assert moving_mean(checkpoint(), outside=True) == 1.0, where
    norm = keras.layers.BatchNormalization(momentum=0.5, dtype=dtype.name)
    norm_block = checkpoint()(lambda h: norm(h, training=True))
    tf.function(lambda x: value_and_gradient(norm_block, x))(tf.constant([[1.0], [3.0]], dtype))  # in a graph too
    assert float(norm.moving_mean.numpy()[0]) == 1.5, f"in a tf.function: {where}"


def test_what_runs_twice_snippet():
    out = stdout_of("64_checkpoint_dropout_batchnorm.py")
    for line in (
        "  tf.nn.dropout: plain 0, recompute_grad 2, checkpoint 2",
        "  keras Dropout: plain 0, recompute_grad 2, checkpoint 2",
        "  stateless_dropout, seed drawn outside: plain 0, recompute_grad 0, checkpoint 0",
        "  plain: moving mean 1\n  recompute_grad: moving mean 1.5\n  checkpoint: moving mean 1.5\n",
        "  checkpoint, norm after: moving mean 1\n",
    ):
        assert line in out, f"snippets/cookbook/64_checkpoint_dropout_batchnorm.py changed: update {PAGE}:\n{out}"
