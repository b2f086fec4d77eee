"""Graph mode: tf.custom_gradient adds an IdentityN op with its gradient."""

import re

import tensorflow as tf

# a private module, used here only to look into the gradient registry:
from tensorflow.python.framework import ops


@tf.custom_gradient
def round_ste(x):
    return tf.round(x), lambda dy: dy


@tf.function
def f(x):
    return round_ste(x)


# get_concrete_function traces f and gives us its graph
graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
for op in graph.get_operations():
    print(f"{op.name:11} {op.type:12} inputs={[t.name for t in op.inputs]}")
    if "_gradient_op_type" in op.node_def.attr:
        name = op.get_attr("_gradient_op_type").decode()
        grad_fn = ops.gradient_registry.lookup(name)
        print(
            " " * 12 + "_gradient_op_type =", re.sub(r"[0-9]+$", "<uid>", name)
        )
        print(" " * 12 + "registry[that name] =", grad_fn.__name__)
print("function output:", [t.name for t in graph.outputs])


def count():  # CustomGradient-<uid> names in the process-wide registry
    names = ops.gradient_registry.list()
    return sum(n.startswith("CustomGradient-") for n in names)


before = count()
f.get_concrete_function(tf.TensorSpec([3], tf.float32))  # a new trace
print("names added by one more trace:", count() - before)


@tf.function
def g(x):  # calls round_ste twice
    return round_ste(x) + round_ste(2.0 * x)


before = count()
g.get_concrete_function(tf.TensorSpec([2], tf.float32))  # one trace
print(
    "names added by one trace of a function calling it twice:", count() - before
)
