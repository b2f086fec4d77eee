"""Each case at a few x, step by step: what runs, stores, gets and returns."""

import tensorflow as tf
from tensorflow.python.framework import ops as tf_ops

stored = {}  # what each custom-gradient function stores for its grad
calls = {}  # function -> (dy it got, what it returned), in one backward pass
order = []  # which gradients the tape called, in the order it called them

# TensorFlow's own gradient of each operation type lives in a (private) registry;
# wrap the three our cases use so that every call of one is added to `order`.
BUILT_IN = {"Mul": "3*y", "Pow": "y**2", "AddV2": "a + b"}  # type -> our name
for op_type, name in BUILT_IN.items():
    entry = tf_ops._gradient_registry._registry[op_type]

    def recorded(op, *dys, name=name, grad=entry["type"]):
        order.append(name)
        return grad(op, *dys)

    entry["type"] = recorded


@tf.custom_gradient
def log1pexp(x):
    e = stored["e"] = tf.exp(x)

    def grad(dy):
        order.append("log1pexp")
        calls["log1pexp"] = dy, dy * (1 - 1 / (1 + e))
        return calls["log1pexp"][1]

    return tf.math.log(1 + e), grad


@tf.custom_gradient
def square(y):
    stored["y"] = y

    def grad(dy):
        order.append("square")
        calls["square"] = dy, 2 * y * dy
        return calls["square"][1]

    return y * y, grad


# One operation: (its name, its inputs, its output, how TensorFlow runs it)
LOG = ("log1pexp", ["x"], "y", log1pexp)
CASES = {  # name: (the operations in forward order, the first dy)
    "the output as the target": ([LOG], 1.0),
    "L = 3*y": ([LOG, ("3*y", ["y"], "L", lambda y: 3.0 * y)], 1.0),
    "L = y**2": ([LOG, ("y**2", ["y"], "L", lambda y: y**2)], 1.0),
    "output_gradients = 5": ([LOG], 5.0),
    "two consumers, L = 3*y + y**2": (
        [
            LOG,
            ("3*y", ["y"], "a", lambda y: 3.0 * y),
            ("y**2", ["y"], "b", lambda y: y**2),
            ("a + b", ["a", "b"], "L", lambda a, b: a + b),
        ],
        1.0,
    ),
    "a chain of two, L = square(y)": (
        [LOG, ("square", ["y"], "L", square)],
        1.0,
    ),
}
STORES = {"log1pexp": "e", "square": "y"}


def show(value):
    return f"{float(value):.4f}"


def trace(ops, first_dy, x_value):
    v = {"x": tf.constant(x_value)}
    print(f"  watch x = {show(v['x'])}")
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v["x"])
        for name, inputs, output, run in ops:
            v[output] = run(*[v[i] for i in inputs])
            stores = f", stores {STORES[name]} = " if name in STORES else ""
            stores += show(stored[STORES[name]]) if stores else ""
            args = ", ".join(f"{i} = {show(v[i])}" for i in inputs)
            print(
                f"  forward {name}: {args} -> {output} = {show(v[output])}{stores}"
            )
    target = ops[-1][2]
    # the first dy: TensorFlow's default (1), or the output_gradients you pass
    given = (
        {} if first_dy == 1.0 else {"output_gradients": tf.constant(first_dy)}
    )
    calls.clear()
    order.clear()
    dx = tape.gradient(v[target], v["x"], **given)
    grads, called = dict(calls), list(order)  # what this one tape.gradient ran
    assert len(called) == len(set(called)) == len(ops), called  # each once
    start = tape.gradient(v[target], v[target], **given)
    print(f"  start at {target} with dy = {show(start)}")
    sent = {}  # value -> what each of its consumers sent back to it
    by_name = {op[0]: op for op in ops}
    for name, inputs, output, _ in (by_name[n] for n in called):
        # dL/d(output): the sum of what the consumers of output sent back
        dy = tape.gradient(v[target], v[output], **given)
        if name in grads:  # your grad: the dy it got, what it returned
            got, back = grads[name][0], [grads[name][1]]
            name += " grad"
        else:  # TensorFlow's own gradient of the operation, given dy
            got = dy
            back = tape.gradient(v[output], [v[i] for i in inputs], dy)
        assert show(got) == show(dy)
        parts = " + ".join(sent.get(output, []))
        dy_text = f"{parts} = {show(got)}" if " + " in parts else show(got)
        for i, b in zip(inputs, back):
            sent.setdefault(i, []).append(show(b))
        back_text = ", ".join(f"{show(b)} to {i}" for i, b in zip(inputs, back))
        print(f"  backward {name}: dy = {dy_text} -> {back_text}")
    print(f"  result d{target}/dx = {show(dx)}")


for case, (ops, first_dy) in CASES.items():
    for x in (-2.0, 0.0, 1.0, 2.0):
        print(f"{case}, x = {x}:")
        trace(ops, first_dy, x)
