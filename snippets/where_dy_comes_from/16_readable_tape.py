"""A reverse-mode tape in plain Python, on the chapter's cases, beside TF's."""

# --8<-- [start:tape]
import math
from collections import namedtuple

# One record per operation: the value it made, its inputs and its grad.
Record = namedtuple("Record", "value inputs grad")
tape = []  # the records, in the order the forward pass made them


def record(value, inputs, grad):
    tape.append(Record(value, inputs, grad))
    return tape[-1]


def constant(value):  # a source: no inputs, no grad
    return record(value, (), None)


def add(a, b):
    return record(a.value + b.value, (a, b), lambda dy: (dy, dy))


def mul(a, b):
    return record(
        a.value * b.value, (a, b), lambda dy: (dy * b.value, dy * a.value)
    )


def custom_gradient(f):  # f(x) returns (value, grad), as for TensorFlow
    def call(x):
        value, grad = f(x.value)  # forward: plain numbers, grad is kept
        return record(value, (x,), lambda dy: (grad(dy),))

    return call


def gradient(target, sources, output_gradient=1.0):
    dys = {id(target): output_gradient}  # dL/dL = 1, unless you choose
    for r in reversed(tape):  # every consumer of a value comes after it
        if id(r) in dys and r.grad is not None:
            # dys[id(r)] is complete: the sum from all of r's consumers
            for x, dx in zip(r.inputs, r.grad(dys[id(r)])):
                dys[id(x)] = dys.get(id(x), 0.0) + dx
    return [dys.get(id(s)) for s in sources]


print("the tape starts empty:", tape)
# --8<-- [end:tape]
from types import SimpleNamespace  # noqa: E402 (the tape above needs none)

import tensorflow as tf  # noqa: E402 (only to compare)

calls = []  # (function, dy) for every call of a grad, in order


@custom_gradient
def log1pexp(x):  # the reader's function, on the readable tape
    e = math.exp(x)

    def grad(dy):
        calls.append(("log1pexp", dy))
        return dy * (1 - 1 / (1 + e))

    return math.log(1 + e), grad


@custom_gradient
def square(y):
    def grad(dy):
        calls.append(("square", dy))
        return 2 * y * dy

    return y * y, grad


@tf.custom_gradient
def tf_log1pexp(x):  # the same function, on TensorFlow's tape
    e = tf.exp(x)

    def grad(dy):
        calls.append(("log1pexp", float(dy)))
        return dy * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


@tf.custom_gradient
def tf_square(y):
    def grad(dy):
        calls.append(("square", float(dy)))
        return 2 * y * dy

    return y * y, grad


READABLE = SimpleNamespace(
    const=constant, add=add, mul=mul, log1pexp=log1pexp, square=square
)
TENSORFLOW = SimpleNamespace(  # float64, as Python's numbers
    const=lambda value: tf.constant(value, tf.float64),
    add=tf.add,
    mul=tf.multiply,
    log1pexp=tf_log1pexp,
    square=tf_square,
)


def y_squared(x, op):
    y = op.log1pexp(x)
    return op.mul(y, y)


def two_consumers(x, op):
    y = op.log1pexp(x)
    return op.add(op.mul(op.const(3.0), y), op.mul(y, y))


CASES = {  # name: (the target L built from x, the first dy)
    "the output as the target": (lambda x, op: op.log1pexp(x), 1.0),
    "L = 3*y": (lambda x, op: op.mul(op.const(3.0), op.log1pexp(x)), 1.0),
    "L = y**2": (y_squared, 1.0),
    "output_gradients = 5": (lambda x, op: op.log1pexp(x), 5.0),
    "two consumers, L = 3*y + y**2": (two_consumers, 1.0),
    "a chain of two, L = square(y)": (
        lambda x, op: op.square(op.log1pexp(x)),
        1.0,
    ),
}


def siblings(x, op):  # two custom-gradient consumers of one value
    y = op.log1pexp(x)
    return op.add(op.square(y), op.log1pexp(y))


def nothing_watched(x, op):  # square's input depends on nothing watched
    return op.mul(op.log1pexp(x), op.square(op.const(2.0)))


DIFFERENT = {  # where the real tape does more than the readable one
    "siblings, L = square(y) + log1pexp(y)": (siblings, 1.0),
    "nothing watched, L = y * square(2)": (nothing_watched, 1.0),
}
CASES.update(DIFFERENT)


def readable_tape(case, x_value):
    tape.clear()
    calls.clear()
    build, first_dy = CASES[case]
    x = constant(x_value)
    (dx,) = gradient(build(x, READABLE), [x], first_dy)
    return list(calls), dx


def tensorflow_tape(case, x_value):
    calls.clear()
    build, first_dy = CASES[case]
    x = tf.constant(x_value, tf.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        L = build(x, TENSORFLOW)
    dx = t.gradient(L, x, output_gradients=TENSORFLOW.const(first_dy))
    return list(calls), float(dx)


if __name__ == "__main__":
    for case in CASES:
        if case == next(iter(DIFFERENT)):
            print("where the two tapes differ (the same dL/dx):")
        print(f"{case}, x = 0:")
        for name, run in [("readable", readable_tape), ("TF", tensorflow_tape)]:
            grads, dx = run(case, 0.0)
            shown = " ".join(f"{f}(dy={dy:.4f})" for f, dy in grads)
            print(f"  {name:>8}: grad calls {shown} -> dL/dx = {dx:.4f}")
