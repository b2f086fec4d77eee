"""tf.stop_gradient and tf.custom_gradient: which one wins where."""

import tensorflow as tf

calls = {"grad": 0}


@tf.custom_gradient
def double(x):
    # inside the forward pass: irrelevant, grad decides
    y = tf.stop_gradient(2.0 * x)

    def grad(dy):
        calls["grad"] += 1
        return 2.0 * dy

    return y, grad


def straight_through_round(x):  # value of round(x), gradient of x
    return x + tf.stop_gradient(tf.round(x) - x)


x = tf.constant(1.3)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    inside = double(x)
    # around the call: grad is never called
    outside = tf.stop_gradient(double(x))
    trick = straight_through_round(x)
g = tape.gradient(inside, x)
print(f"stop_gradient inside the forward pass: gradient {g.numpy():.1f}")
calls["grad"] = 0
g = tape.gradient(outside, x)
print(
    "stop_gradient around the call:         gradient "
    f"{g}, grad called {calls['grad']} times"
)
calls["grad"] = 0
with tf.GradientTape() as tape2:  # the function in a tf.function this time
    tape2.watch(x)
    outside = tf.stop_gradient(tf.function(double)(x))
g = tape2.gradient(outside, x)
print(
    "the same around a tf.function call:    gradient "
    f"{g}, grad called {calls['grad']} times"
)
g = tape.gradient(trick, x)
print(
    "x + stop_gradient(round(x) - x):       value "
    f"{trick.numpy():.1f}, gradient {g.numpy():.1f}"
)
