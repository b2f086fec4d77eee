"""gradient_override_map: an eager tape and a tape inside tf.function ignore it; the graph backward pass applies it."""

import tensorflow as tf


@tf.RegisterGradient("HalfReluGrad")
def _half_relu_grad(op, dy):
    return 0.5 * dy  # easy to spot: 0.5 everywhere instead of ReLU's 0 or 1


def override():
    graph = tf.compat.v1.get_default_graph()
    return graph.gradient_override_map({"Relu": "HalfReluGrad"})


x = tf.constant([-1.0, 2.0])

with tf.GradientTape() as tape:  # eager mode
    tape.watch(x)
    with override():
        y = tf.nn.relu(x)
print("GradientTape, eager:       ", tape.gradient(y, x).numpy())


@tf.function
def tape_in_graph(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        with override():
            y = tf.nn.relu(x)
    return tape.gradient(y, x)


@tf.function
def tf_gradients_in_graph(x):
    with override():
        y = tf.nn.relu(x)
    return tf.gradients(y, x)[0]


@tf.function
def relu_in_graph(x):
    with override():
        return tf.nn.relu(x)


# eager tape, outside the tf.function that builds the op
with tf.GradientTape() as tape:
    tape.watch(x)
    y = relu_in_graph(x)

print("GradientTape, tf.function: ", tape_in_graph(x).numpy())
print("tf.gradients, tf.function: ", tf_gradients_in_graph(x).numpy())
print("GradientTape outside it:   ", tape.gradient(y, x).numpy())
