"""A Hessian, tape.jacobian of tape.gradient, of a function with a nested
tf.cond (if/elif/else): fails inside tf.function unless
experimental_use_pfor=False; one tf.cond and eager mode work."""

import tensorflow as tf

tf.get_logger().setLevel("CRITICAL")  # pfor logs pages of graph on failure


def one_cond(x):
    return tf.cond(x[0] > 0.0, lambda: x**2, lambda: x**3)


def nested_cond(x):  # if x > 1: x**2  elif x > 0: x**4  else: x**3
    return tf.cond(
        x[0] > 1.0,
        lambda: x**2,
        lambda: tf.cond(x[0] > 0.0, lambda: x**4, lambda: x**3),
    )


def hessian(f, x, use_pfor):
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x))
        g = inner.gradient(y, x)
    return outer.jacobian(g, x, experimental_use_pfor=use_pfor)


x = tf.constant([0.5])
for f in [one_cond, nested_cond]:
    for use_pfor in [True, False]:
        for mode in ["eager", "tf.function"]:
            run = hessian if mode == "eager" else tf.function(hessian)
            try:
                result = run(f, x, use_pfor).numpy().ravel()
            except ValueError as e:
                result = str(e).splitlines()[-1].strip()  # its last line
            print(
                f"{f.__name__:>11}, pfor={use_pfor!s:<5} {mode:>11}: {result}"
            )
