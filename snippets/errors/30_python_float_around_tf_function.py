"""grad returns a Python float: what each context around tf.function does."""

import tensorflow as tf


@tf.custom_gradient
def python_float(x):
    return 2.0 * x, lambda dy: 2.0  # BUG: a Python float


def alone(f, x):
    return f(x)


def used_twice(f, x):  # x is used twice: TensorFlow must add two gradients
    return f(x) + x


def tape(loss, f, x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = loss(f, x)
    return t.gradient(y, x)


contexts = {
    "tape inside tf.function": lambda loss, f, x: tf.function(
        lambda x: tape(loss, f, x)
    )(x),
    "tf.gradients in tf.function": lambda loss, f, x: tf.function(
        lambda x: tf.gradients(loss(f, x), x)[0]
    )(x),
    "tape outside tf.function": lambda loss, f, x: tape(
        loss, tf.function(f), x
    ),
}


def message(e):  # inside tf.function, TF wraps it in "in user code: ..."
    kind = type(e).__name__ + ":"
    lines = [line.strip() for line in str(e).splitlines()]
    own = [line[len(kind) :].strip() for line in lines if line.startswith(kind)]
    text = own[-1] if own else lines[0] if lines else ""
    return text.split(" [Op:")[0]  # drop TF's op decoration


x = tf.constant([1.0, 2.0, 3.0])
for f in [python_float]:
    for name, run in contexts.items():
        print(f"{f.__name__}, {name}:")
        for loss in [alone, used_twice]:
            try:
                g = run(loss, f, x)
                result = f"no error, {g.dtype.name} {g.shape}"
            except (
                AssertionError,
                AttributeError,
                TypeError,
                ValueError,
                tf.errors.InvalidArgumentError,
            ) as e:
                result = f"{type(e).__name__}: {message(e)}"
            print(f"  {loss.__name__:10} -> {result}")
