"""Forward mode calls grad but, eagerly and in tf.function, drops its result."""

import tensorflow as tf

calls = []  # a side effect of grad: one entry per call


def make_log1pexp(extra=False):  # extra: one gradient too many (a bug)
    @tf.custom_gradient
    def log1pexp(x):  # the tf.custom_gradient docstring's example
        e = tf.exp(x)

        def grad(dy):
            calls.append("grad")
            g = dy * (1 - 1 / (1 + e))  # stable at x = 100
            return (g, g) if extra else g

        return tf.math.log(1 + e), grad

    return log1pexp


def reverse_mode(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def forward_mode(f, x):
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = f(x)
    return acc.jvp(y)


def runs(f):
    return {
        "reverse mode (GradientTape)": lambda: reverse_mode(f, x),
        "forward mode, eager": lambda: forward_mode(f, x),
        "forward mode, inside tf.function": lambda: tf.function(
            lambda x: forward_mode(f, x)
        )(x),
        "forward mode, around tf.function": lambda: forward_mode(
            tf.function(f), x
        ),
    }


def key_line(e):  # tf.function adds a traceback: keep the message's last line
    lines = [line.strip() for line in str(e).strip().splitlines()]
    head = [
        line.split(" name:")[0] for line in lines if "Num gradients" in line
    ]
    return f"{type(e).__name__}: " + " ... ".join(head + lines[-1:])


x = tf.constant(100.0)  # the true derivative is 1.0
for name, run in runs(make_log1pexp()).items():
    calls.clear()
    value = float(run())
    print(f"{name:33} {value:<4}  grad called {len(calls)} time(s)")

print("with a grad that returns one gradient too many:")
for name, run in list(runs(make_log1pexp(extra=True)).items())[1:]:
    try:
        print(f"{name:33} {float(run())}")
    except Exception as e:
        print(f"{name:33} {key_line(e)}")
