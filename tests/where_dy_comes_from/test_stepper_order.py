"""docs/where-dy-comes-from.md#step-through, the paragraph under the stepper: in the two-consumers case
tf.GradientTape runs the gradient of 3·y before that of y², because the gradient of `a + b` makes its inputs
ready in their order (tensorflow/c/eager/tape.h: ready operations wait in a queue, first in, first out), and
log1pexp's grad runs once, with the sum. The stepper's backward steps follow that order as snippet 17 recorded
it; this test runs TensorFlow here and fails if the order changes.
"""

import re

import pytest
import tensorflow as tf
from tensorflow.python.framework import ops as tf_ops

from tools import where_dy_stepper as tool

WHERE = "docs/where-dy-comes-from.md#step-through (and .ru.md)"
BUILT_IN = {"Mul": "3*y", "Pow": "y**2", "AddV2": "a + b"}


@pytest.fixture
def called():
    """The names of the gradients tf.GradientTape calls, in order (TensorFlow's own ones wrapped meanwhile)."""
    order, registry = [], tf_ops._gradient_registry._registry
    saved = {op_type: registry[op_type]["type"] for op_type in BUILT_IN}

    def recorded(op_type):
        def grad(op, *dys):
            order.append(BUILT_IN[op_type])
            return saved[op_type](op, *dys)

        return grad

    for op_type in BUILT_IN:
        registry[op_type]["type"] = recorded(op_type)
    try:
        yield order
    finally:
        for op_type, grad in saved.items():
            registry[op_type]["type"] = grad


def two_consumers(order, x_value, sum_of):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            order.append(("log1pexp", float(dy)))
            return dy * (1 - 1 / (1 + e))

        return tf.math.log(1 + e), grad

    x = tf.constant(x_value)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
        a, b = 3.0 * y, y**2
        L = sum_of(a, b)
    order.clear()
    tape.gradient(L, x)
    return list(order)


def kept_order(x: str) -> list[str]:
    """The backward steps of the two-consumers case at x, in the order snippet 17 printed them."""
    text = tool.TRACE_OUT.read_text(encoding="utf-8")
    run = text.split(f"two consumers, L = 3*y + y**2, x = {x}:\n")[1].split("\n  result")[0]
    return re.findall(r"^  backward (.+?)(?: grad)?:", run, re.M)


@pytest.mark.parametrize("x", [-2.0, 0.0, 1.0, 2.0])
def test_two_consumers_in_the_order_of_the_sums_inputs(called, x):
    calls = two_consumers(called, x, lambda a, b: a + b)
    names = [c if isinstance(c, str) else c[0] for c in calls]
    assert names == ["a + b", "3*y", "y**2", "log1pexp"], (
        f"{WHERE}: tf.GradientTape now calls the gradients in the order {calls}; reword the paragraph under the "
        f"stepper, then run {tool.COMMAND}"
    )
    assert names == kept_order(f"{x}"), f"{tool.TRACE_OUT.relative_to(tool.ROOT)} is stale: run {tool.COMMAND}"
    y = float(tf.math.softplus(x))
    assert calls[-1][1] == pytest.approx(3.0 + 2.0 * y, abs=1e-5), (
        f"{WHERE}: log1pexp's grad no longer gets the sum once: {calls}"
    )


def test_the_order_of_the_sums_inputs_decides(called):
    calls = two_consumers(called, 0.0, lambda a, b: b + a)
    assert [c if isinstance(c, str) else c[0] for c in calls] == ["a + b", "y**2", "3*y", "log1pexp"], (
        f"{WHERE}: with L = b + a, tf.GradientTape calls {calls}; the paragraph under the stepper says the "
        "order of the sum's inputs decides: reword it"
    )
