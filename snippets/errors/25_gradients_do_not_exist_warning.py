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


shown = set()


def fit_and_report(model, label, run_eagerly=False, show="always"):
    before = model.unused.kernel.numpy().copy()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(show)  # "always": every warning; "default": once
        x, y = np.ones((4, 2)), np.ones((4, 1))
        model.fit(x, y, batch_size=1, epochs=1, verbose=0)  # 4 steps
    found = [w for w in caught if "Gradients do not exist" in str(w.message)]
    for message in {str(w.message) for w in found} - shown:
        print("UserWarning:", message)
        shown.add(message)
    print(label, "warnings about missing gradients in 4 steps:", len(found))
    changed = not np.array_equal(before, model.unused.kernel.numpy())
    print(label, "training finished; unused kernel changed:", changed)


keras.utils.set_random_seed(0)
model = TwoHeads()
model(np.ones((1, 2)))
fit_and_report(model, "run_eagerly=False:       ")
fit_and_report(model, "run_eagerly=True:        ", run_eagerly=True)
fit_and_report(
    model, "the same, default filter:", run_eagerly=True, show="default"
)
model.unused.trainable = False  # unused on purpose: say so
fit_and_report(model, "unused frozen:           ", run_eagerly=True)
