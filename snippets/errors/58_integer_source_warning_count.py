"""The integer-source warning: at most five times per line that calls watch
(in eager code; lines in AutoGraph-converted tf.functions share one count)."""

import logging

import tensorflow as tf

warnings = []
counter = logging.Handler()
counter.emit = lambda record: warnings.append(record.getMessage())
tf.get_logger().addHandler(counter)


def count():  # the integer-source warnings so far
    return sum("dtype of the watched tensor" in w for w in warnings)


def watch(x):
    with tf.GradientTape() as tape:
        tape.watch(x)  # line A: every call of watch() comes through here
    return tape


for i in range(7):
    watch(tf.constant(i))
print("line A, 7 calls:", count(), "warnings")
for i in range(7):
    with tf.GradientTape() as tape:
        tape.watch(tf.constant(i))  # line B: counted apart from line A
print("line A, then line B, 7 calls each:", count(), "warnings")


def two_lines(autograph):  # lines C and D, in tf.functions
    @tf.function(autograph=autograph)
    def c(x):
        with tf.GradientTape() as tape:
            tape.watch(x)  # line C
        return x

    @tf.function(autograph=autograph)
    def d(x):
        with tf.GradientTape() as tape:
            tape.watch(x)  # line D
        return x

    return c, d


for autograph in (True, False):
    before = count()
    c, d = two_lines(autograph)
    for n in range(1, 5):  # a new shape each time: 4 traces of each
        c(tf.zeros([n], tf.int32))
        d(tf.zeros([n], tf.int32))
    print(
        f"lines C and D in tf.function(autograph={autograph}), 4 traces each:",
        count() - before,
        "warnings",
    )
