"""Where safe_std's grad takes sigma from: a call of safe_std on tf.identity(x)
(the recipe), on x itself, or the closure. The same second derivatives,
except under jit_compile and with the tapes around a tf.function."""

import tensorflow as tf


def make_safe_std(sigma_from):
    @tf.custom_gradient
    def safe_std(x):  # the recipe, but for where grad takes sigma from
        equal = tf.reduce_max(x) == tf.reduce_min(x)
        std = tf.math.reduce_std(x)
        value = tf.where(equal, tf.zeros_like(std), std)

        def grad(dy):
            n = tf.cast(tf.size(x), x.dtype)
            std = {  # the only change
                "recipe": lambda: safe_std(tf.identity(x)),
                "x itself": lambda: safe_std(x),
                "closure": lambda: value,
            }[sigma_from]()
            positive = std > 0
            safe = tf.where(positive, std, tf.ones_like(std))
            d = x - tf.reduce_mean(x)
            d = (d - tf.reduce_mean(d)) / (n * safe)
            return dy * tf.where(positive, d, tf.zeros_like(d))

        return value, grad

    return safe_std


W = tf.constant([1.0, 2.0, 3.0], tf.float64)  # d/dx of sum(W * gradient)


def second(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = tf.reduce_sum(W * inner.gradient(y, x))
    return outer.gradient(g, x)


def second_by_tf_gradients(f, x):  # in a graph: inside a tf.function
    g = tf.reduce_sum(W * tf.gradients(f(x), x)[0])
    return tf.gradients(g, x)[0]


def contexts(f):
    return [
        ("eager", lambda x: second(f, x)),
        ("tapes inside tf.function", tf.function(lambda x: second(f, x))),
        (
            "tapes inside jit_compile",
            tf.function(lambda x: second(f, x), jit_compile=True),
        ),
        ("tf.gradients", tf.function(lambda x: second_by_tf_gradients(f, x))),
        ("tapes around tf.function(f)", lambda x: second(tf.function(f), x)),
    ]


for values in ([3.0, 3.0, 3.0], [1.0, 2.0, 4.0]):
    x = tf.constant(values, tf.float64)
    print(f"second derivative at {values}:")
    for name in ("recipe", "x itself", "closure"):
        for context, run in contexts(make_safe_std(name)):
            try:
                shown = run(x).numpy().round(4)
            except TypeError as e:
                shown = f"TypeError: {str(e).split('. Use')[0]}"
            print(f"  {name:8} {context:27} {shown}")
