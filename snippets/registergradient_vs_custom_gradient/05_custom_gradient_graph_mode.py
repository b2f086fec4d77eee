"""Graph mode: tf.custom_gradient adds an IdentityN op whose gradient is registered under CustomGradient-<uid>."""
import re

import tensorflow as tf
from tensorflow.python.framework import ops  # private module, used here only to look into the registry


@tf.custom_gradient
def round_ste(x):
    return tf.round(x), lambda dy: dy


@tf.function
def f(x):
    return round_ste(x)


graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph  # traces f
for op in graph.get_operations():
    line = f"{op.name:11} {op.type:12} inputs={[t.name for t in op.inputs]}"
    if "_gradient_op_type" in op.node_def.attr:
        name = op.get_attr("_gradient_op_type").decode()
        grad_fn = ops.gradient_registry.lookup(name)
        line += f"\n{'':12}_gradient_op_type = {re.sub(r'[0-9]+$', '<uid>', name)}"
        line += f"\n{'':12}registry[that name] = {grad_fn.__name__}  (wraps our grad)"
    print(line)
print("function output:", [t.name for t in graph.outputs])

# every trace registers one more CustomGradient-<uid> name in the process-wide registry
count = lambda: sum(n.startswith("CustomGradient-") for n in ops.gradient_registry.list())
before = count()
f.get_concrete_function(tf.TensorSpec([3], tf.float32))  # a new input shape -> a new trace
print("CustomGradient-* names added by one more trace:", count() - before)
