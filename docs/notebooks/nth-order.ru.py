# %% [markdown]
# # Ноутбук: nth-order <a id="notebook"></a>
#
# Черновик.

# %%
import tensorflow as tf

x = tf.constant(0.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sigmoid(x)
print("dy/dx at x = 0:", float(tape.gradient(y, x)))
