"""Keras warns "Gradients do not exist for variables" and trains on; those weights never change."""

import warnings

import keras
import numpy as np


class TwoHeads(keras.Model):
    def __init__(self):
        super().__init__()
        self.used = keras.layers.Dense(1)
        self.unused = keras.layers.Dense(1)  # runs, but the loss ignores it

    def call(self, x):
        self.unused(x)
        return self.used(x)


def fit_and_report(model, label):
    before = model.unused.kernel.numpy().copy()
    model.compile(optimizer="sgd", loss="mse")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0)
    found = [w for w in caught if "Gradients do not exist" in str(w.message)]
    for w in found:
        print(label, "UserWarning:", w.message)
    print(label, "warnings about missing gradients:", len(found))
    changed = not np.array_equal(before, model.unused.kernel.numpy())
    print(label, "training finished; unused kernel changed:", changed)


keras.utils.set_random_seed(0)
model = TwoHeads()
model(np.ones((1, 2)))
fit_and_report(model, "all trainable:   ")
model.unused.trainable = False  # unused on purpose: say so
fit_and_report(model, "unused frozen:   ")
