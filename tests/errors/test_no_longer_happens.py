"""Old reports that no longer reproduce in TensorFlow 2.21 (docs/errors/no-longer-happens.md#symptom-no-longer), and what
TensorFlow does instead, checked in-process. A failure means TensorFlow changed again: update that entry."""

import logging

import keras
import pytest
import tensorflow as tf

NO_LONGER = "docs/errors/no-longer-happens.md#symptom-no-longer"


def jacobian(method, persistent, **options):
    x = tf.random.stateless_normal([4, 3], seed=[1, 2])
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        y = tf.tanh(x) ** 2
    return getattr(tape, method)(y, x, **options)


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_parallel_iterations_needs_a_persistent_tape(in_tf_function):
    def run(method, persistent, **options):
        call = lambda: jacobian(method, persistent, **options)  # noqa: E731
        return (tf.function(call) if in_tf_function else call)()

    with pytest.raises(RuntimeError, match="persistent=True to compute the batch_jacobian with parallel_iterations"):
        run("batch_jacobian", False, parallel_iterations=2)
    with pytest.raises(ValueError, match="Encountered an exception while vectorizing the jacobian computation"):
        run("jacobian", False, parallel_iterations=2)
    for method in ("batch_jacobian", "jacobian"):
        difference = tf.reduce_max(tf.abs(run(method, True, parallel_iterations=2) - run(method, False)))
        assert float(difference) == 0.0, f"{method}: a persistent tape should give the default result"


def test_no_pfor_needs_a_persistent_tape_in_eager_mode_only():
    where = (
        "update docs/errors/no-longer-happens.md#batch-jacobian-persistent (and .ru.md), "
        "snippets/errors/50_batch_jacobian_needs_persistent_tape.py"
    )
    for method in ("batch_jacobian", "jacobian"):
        try:  # without parallel_iterations, eagerly: an earlier wording said no persistent tape was needed
            jacobian(method, False, experimental_use_pfor=False)
        except RuntimeError as e:
            assert f"persistent=True to compute the {method} with eager execution" in str(e), f"{e}; {where}"
        else:
            raise AssertionError(f"eager {method}(experimental_use_pfor=False) works without persistent=True; {where}")
        looped = tf.function(lambda m=method: jacobian(m, False, experimental_use_pfor=False))()
        difference = float(tf.reduce_max(tf.abs(looped - jacobian(method, False))))
        assert difference == 0.0, f"{method} without pfor inside tf.function: difference {difference}; {where}"


@pytest.mark.parametrize(
    "layer",
    [keras.layers.LeakyReLU(), keras.layers.Conv1D(2, 3), keras.layers.LSTM(2)],
    ids=lambda la: type(la).__name__,
)
def test_jacobian_vectorizes_through_keras_layers(layer):
    x = tf.random.stateless_normal([2, 6, 3], seed=[1, 2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = layer(x)
    vectorized = tape.jacobian(y, x)
    looped = tape.jacobian(y, x, experimental_use_pfor=False)
    assert float(tf.reduce_max(tf.abs(vectorized - looped))) < 1e-6, f"{type(layer).__name__}: see {NO_LONGER}"


def test_jacobian_inside_the_tape_block_works_and_a_persistent_tape_warns():
    messages = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: messages.append(record.getMessage())
    tf.get_logger().addHandler(handler)
    try:
        x = tf.constant([[1.0], [5.0]])

        def jacobian_inside(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                return tape.jacobian(x * x, x)

        for run in (jacobian_inside, tf.function(jacobian_inside)):
            assert run(x).shape == (2, 1, 2, 1), f"tape.jacobian inside the block: see {NO_LONGER}"
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            tape.gradient(x * x, x)
    finally:
        tf.get_logger().removeHandler(handler)
    assert any("persistent tape inside its context is significantly less efficient" in m for m in messages), (
        f"the warning for gradient inside a persistent tape's block changed: {messages}; update docs/errors/no-longer-happens.md"
        "#tape-still-recording"
    )


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_entering_an_active_tape_again_still_raises_tape_is_still_recording(in_tf_function):
    def reenter(x):
        tape = tf.GradientTape()
        with tape:
            tape.watch(x)
            with tape:
                w = x * x
        return tape.gradient(w, x)

    run = tf.function(reenter) if in_tf_function else reenter
    with pytest.raises(ValueError, match="Tape is still recording, This can happen if you try to re-enter"):
        run(tf.constant(3.0))


@pytest.mark.parametrize("in_tf_function", [False, True])
def test_recompute_grad_with_one_tensor_twice(in_tf_function):
    @tf.recompute_grad
    def add(a, b):
        return a + b

    def gradient():
        x = tf.ones(3)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(add(x, x))
        return tape.gradient(y, x)

    run = tf.function(gradient) if in_tf_function else gradient
    assert run().numpy().tolist() == [2.0, 2.0, 2.0], f"tensorflow#36999: see {NO_LONGER}"


@pytest.mark.parametrize("use_pfor", [True, False])
def test_jacobian_of_an_empty_batch(use_pfor):
    v = tf.Variable(1.0)

    def run():
        with tf.GradientTape(persistent=True) as tape:
            outputs = v * tf.zeros([0, 4]) ** 2
        return tape.jacobian(outputs, v, experimental_use_pfor=use_pfor)

    assert run().shape == (0, 4) and tf.function(run)().shape == (0, 4), f"tensorflow#37795: see {NO_LONGER}"
