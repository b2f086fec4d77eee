"""Forward mode around a tf.function raises when grad calls a custom gradient."""

import tensorflow as tf


@tf.custom_gradient
def plain(x):  # grad calls ordinary ops only
    return tf.exp(x), lambda dy: dy * tf.exp(x)


@tf.custom_gradient
def itself(x):  # grad calls this very function (as for order 2)
    return tf.exp(x), lambda dy: dy * itself(x)


@tf.custom_gradient
def another(x):  # grad calls another custom-gradient function
    return tf.exp(x), lambda dy: dy * plain(x)


CASES = {  # what each grad calls
    "ordinary ops": plain,
    "its own function": itself,
    "another custom gradient": another,
}
x = tf.constant(1.0)
print("d/dx exp(x) at 1 = 2.7183, an eager accumulator around a tf.function:")
for calls, f in CASES.items():
    try:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
            y = tf.function(f)(x)
        print(f"  grad calls {calls}: {acc.jvp(y):.4f}")
    except TypeError as e:
        print(f"  grad calls {calls}: {type(e).__name__}: {e}")
print("the same functions, eager (no tf.function):")
for calls, f in CASES.items():
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = f(x)
    print(f"  grad calls {calls}: {acc.jvp(y):.4f}")
