"""jacobian and batch_jacobian with parallel_iterations or without pfor."""

import tensorflow as tf

x = tf.random.stateless_normal([8, 3], seed=[1, 2])


def jacobian(method, persistent, options):
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        y = tf.tanh(x) ** 2
    return getattr(tape, method)(y, x, **options)


for method in ["batch_jacobian", "jacobian"]:
    reference = jacobian(method, False, {})
    for options in [
        {"parallel_iterations": 2},
        {"experimental_use_pfor": False},
    ]:
        print(f"tape.{method}(y, x, {options}):")
        for mode, persistent in [
            ("eager", False),
            ("tf.function", False),
            ("eager", True),
        ]:
            label = f"  {mode:>11}, persistent={persistent!s:<5}"
            run = tf.function(jacobian) if mode == "tf.function" else jacobian
            try:
                result = run(method, persistent, options)
                error = float(tf.reduce_max(tf.abs(result - reference)))
                print(f"{label}: works, largest difference {error}")
            except (RuntimeError, ValueError) as e:
                message = " ".join(str(e).strip().splitlines()[-1].split())
                message = message.removeprefix(f"{type(e).__name__}: ")
                print(f"{label}: {type(e).__name__}: {message}")
