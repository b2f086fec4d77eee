"""A gradient registered under a new op type is not saved in a SavedModel."""

import os
import subprocess
import sys
import tempfile

import tensorflow as tf


@tf.RegisterGradient("SoftsignGrad")  # a new op type, as in the snippet above
def _softsign_grad_grad(op, dy):
    g, f = op.inputs
    denom = 1.0 + tf.abs(f)
    return dy / denom**2, -2.0 * dy * g * tf.sign(f) / denom**3


class NewOp(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(self, x):
        return tf.raw_ops.SoftsignGrad(gradients=tf.ones_like(x), features=x)


# runs in a NEW process; REGISTER=1 runs the same @tf.RegisterGradient first
LOAD_AND_DIFFERENTIATE = """
import os, sys, tensorflow as tf
if os.environ["REGISTER"] == "1":
    @tf.RegisterGradient("SoftsignGrad")
    def _softsign_grad_grad(op, dy):
        g, f = op.inputs
        denom = 1.0 + tf.abs(f)
        return dy / denom**2, -2.0 * dy * g * tf.sign(f) / denom**3
m = tf.saved_model.load(sys.argv[1])
x = tf.constant(1.0)
try:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = m.f(x)
    print(f"  dy/dx = {float(tape.gradient(y, x))}")
except LookupError as e:
    print(f"  {type(e).__name__}: " + str(e).split(". ")[0] + ".")
"""

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "new_op")
    tf.saved_model.save(NewOp(), path)  # default options
    for register in ["0", "1"]:
        print(f"loaded in a new process, @tf.RegisterGradient run: {register}")
        run = subprocess.run(
            [sys.executable, "-c", LOAD_AND_DIFFERENTIATE, path],
            capture_output=True,
            text=True,
            env={**os.environ, "REGISTER": register},
        )
        print(run.stdout, end="")
