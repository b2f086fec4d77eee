"""tape.jacobian and tape.gradient called inside the tape's own with-block;
the same tape entered again inside its block."""

import logging

import tensorflow as tf


class Warnings(logging.Handler):  # collect TensorFlow's logged warnings
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


warnings = Warnings()
tf.get_logger().addHandler(warnings)


def jacobian_inside(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        w = x * x
        jacobian = tape.jacobian(w, x)  # inside the block
    return jacobian


def gradient_inside_persistent(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        w = x * x
        gradient = tape.gradient(w, x)  # inside the block of a persistent tape
    return gradient, tape.gradient(gradient, x)  # it recorded the gradient


def still_recording(tape):
    try:
        with tape.stop_recording():
            return "yes"
    except RuntimeError as e:
        return f"no, RuntimeError: {e}"


answers = []  # filled while the function runs (traces, in a tf.function)


def gradient_inside_non_persistent(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        w = x * x
        gradient = tape.gradient(w, x)  # inside the block, not persistent
        answers.append(still_recording(tape))
    return gradient


def reenter(x):
    tape = tf.GradientTape()
    with tape:
        tape.watch(x)
        with tape:  # the same tape, entered again inside its own block
            w = x * x
    return tape.gradient(w, x)


x = tf.constant([[1.0], [5.0]])
for mode, wrap in [("eager", lambda f: f), ("tf.function", tf.function)]:
    print(
        f"{mode:>11}: jacobian inside a tape: {wrap(jacobian_inside)(x).shape}"
    )
    gradient, second = wrap(gradient_inside_persistent)(x)
    print(
        f"{mode:>11}: gradient inside a persistent tape: "
        f"{gradient.numpy().ravel()}, its gradient: {second.numpy().ravel()}"
    )
    wrap(gradient_inside_non_persistent)(x)
    print(f"{mode:>11}: non-persistent tape still recording? {answers.pop()}")
    try:
        wrap(reenter)(x)
    except ValueError as e:
        message = str(e).strip().splitlines()[-1].strip()  # tf.function: last
        message = message.removeprefix("ValueError: ")
        print(f"{mode:>11}: tape entered again: ValueError: {message}")
for message in dict.fromkeys(warnings.messages):  # each message once
    print("WARNING logged:", message)
