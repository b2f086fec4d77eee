"""Where tf.recompute_grad stops: order 2 in a graph, a Keras block, forward mode."""

import keras
import tensorflow as tf


def block(h):
    for _ in range(7):
        h = tf.sin(h)
    return tf.sin(h)


def second(f, x):  # d/dx of sum(d/dx sum(f(x))), nested tapes
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x))
        dx = tf.reduce_sum(inner.gradient(y, x))
    return outer.gradient(dx, x)


def second_graph(f, x):  # the same with tf.gradients, in a graph
    dx = tf.gradients(tf.reduce_sum(f(x)), x)[0]
    return tf.gradients(tf.reduce_sum(dx), x)[0]


def forward(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = f(x)
    return acc.jvp(y)


def show(name, run):
    try:
        print(f"  {name:28} {run().numpy().round(6)}")
    except Exception as e:  # noqa: BLE001 -- printed, not raised
        kind = type(e).__name__  # in a graph: the last line names the cause
        line = [s for s in str(e).splitlines() if kind in s or s][-1].strip()
        line = line.removeprefix(f"{kind}: ")
        print(f"  {name:28} {kind}: {line[:38]}")


keras.utils.set_random_seed(0)  # the Keras block's initial weights
x = tf.constant([0.5, -1.0, 2.0], tf.float64)
checkpointed = tf.recompute_grad(block)
for title, f in [
    ("plain block:", block),
    ("tf.recompute_grad(block):", checkpointed),
]:
    print(title)
    show("order 2, eager", lambda: second(f, x))  # noqa: B023
    in_graph = tf.function(lambda x: second(f, x))  # noqa: B023 (f: closure)
    show("order 2, tf.function", lambda: in_graph(x))  # noqa: B023
    graph = tf.function(lambda x: second_graph(f, x))  # noqa: B023
    show("order 2, tf.gradients", lambda: graph(x))  # noqa: B023
    show("forward, eager", lambda: forward(f, x))  # noqa: B023
    show("forward, around tf.function", lambda: forward(tf.function(f), x))  # noqa: B023

model = keras.Sequential(  # a Keras block: its weights are variables
    [
        keras.layers.Dense(3, activation="tanh", dtype="float64")
        for _ in range(3)
    ]
)
model.build((None, 3))


def call_model(h):
    return model(h)


for name, f in [
    ("model", model),
    ("tf.recompute_grad(model)", tf.recompute_grad(model)),
    ("tf.recompute_grad(call_model)", tf.recompute_grad(call_model)),
]:
    with tf.GradientTape() as outer:  # a gradient penalty: d|dy/dx|^2/dW
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x[None]))
        penalty = tf.reduce_sum(inner.gradient(y, x) ** 2)
    try:
        dw = outer.gradient(penalty, model.trainable_variables)[0]
        print(f"{name}: d penalty / d first weight {dw[0, 0]:.6g}")
    except (AttributeError, NotImplementedError) as e:
        print(f"{name}: {type(e).__name__}: {str(e).split('. ')[0]}")
