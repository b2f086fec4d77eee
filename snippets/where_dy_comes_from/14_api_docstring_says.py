"""What the installed TensorFlow's tf.custom_gradient docstring says about dy (it calls it `upstream`)."""

import tensorflow as tf

doc = [line.strip() for line in tf.custom_gradient.__doc__.splitlines()]
grad = doc.index("def grad(upstream):")  # in the log1pexp example
note = doc.index(
    "The variable `upstream` is defined as the upstream gradient. i.e. the gradient"
)
print(f"tf.custom_gradient.__doc__ in TensorFlow {tf.__version__}:\n")
print(doc[grad])
print("  " + doc[grad + 1])
print("...")
print("\n".join(doc[note : note + 3]))
