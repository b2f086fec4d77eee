"""A reduce_logsumexp whose gradient is 0 (not nan) where a row is all -inf."""

# --8<-- [start:check]
import json
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf

ERRORS = "https://custom-gradients-faq.github.io/custom-gradients-faq/errors/not-used/"
X_ONLY = ("Keras fit", "forward mode")  # these two check the gradient in x only


def shown(error, ok):  # an agreement as its size, a mismatch as its value
    return (
        f"< 1e{np.ceil(np.log10(error + 1e-300)):+03.0f}"
        if ok
        else f"{error:.2g}"
    )


def derivative(f, sources, dys, order, graph=False):
    """d/d(sources) of sum(dys[order] * the derivative of order - 1)."""
    with tf.GradientTape() as tape:
        y = (
            f(sources[0] + 0)
            if order == 1
            else derivative(f, sources, dys, order - 1, graph)[0]
        )
        y = tf.reduce_sum(dys[order] * y)
    grads = tf.gradients if graph else tape.gradient  # tf.gradients: graphs
    return grads(y, sources, unconnected_gradients="zero")


def slope(value, sources, dirs, h=1e-5):
    """Central difference of value() along dirs, moving the tf.Variables."""
    x0, ends = [s.numpy() for s in sources], []
    for sign in (1, -1):
        for s, a, d in zip(sources, x0, dirs):
            s.assign(a + sign * h * d)
        ends.append(float(value()))
    for s, a in zip(sources, x0):
        s.assign(a)
    return (ends[0] - ends[1]) / (2 * h)


class Layer(tf.keras.layers.Layer):  # fit with SGD(1): w - new w = dL/dw
    def __init__(self, f, shape):
        super().__init__(dtype="float64")
        self.f, self.w = f, self.add_weight(shape=shape, initializer="zeros")

    def call(self, z):
        return tf.reshape(self.f(self.w + 0), [1, -1]) + 0 * z


def contexts(f, xv, sources, dys, dirs, k):
    """{(context, order): a function returning the derivative along dirs}."""
    run = {}
    for m in range(1, k + 1):

        def d(m=m, graph=False):
            gs = derivative(f, sources, dys, m, graph)
            return sum(tf.reduce_sum(g * v) for g, v in zip(gs, dirs))

        run["eager", m], run["tf.function", m] = d, tf.function(d)

        def in_graph(d=d):
            return d(graph=True)

        run["tf.gradients", m] = tf.function(in_graph)
    run["jit_compile", 1] = tf.function(run["eager", 1], jit_compile=True)
    layer, y0 = Layer(f, xv.shape), dys[1].reshape(1, -1)
    model = tf.keras.Sequential([layer])
    loss = lambda _, y: tf.reduce_sum(y0 * y)  # noqa: E731
    model.compile(tf.keras.optimizers.SGD(1.0), loss, jit_compile=False)

    def keras_fit():
        layer.w.assign(xv)
        model.fit(np.zeros((1, 1)), y0, verbose=0)
        return np.sum((xv.numpy() - layer.w.numpy()) * dirs[0])

    def forward_mode():  # dys[1] . (J dirs[0]) = dirs[0] . (J^T dys[1])
        x = xv + 0
        with tf.autodiff.ForwardAccumulator(x, dirs[0]) as acc:
            y = f(x)
        return tf.reduce_sum(dys[1] * acc.jvp(y, unconnected_gradients="zero"))

    run["Keras fit", 1], run["forward mode", 1] = keras_fit, forward_mode
    return run


def reference(f, xv, sources, dys, dirs, k, rule):
    """{order: (along dirs in x only, along all dirs)} by differences of the
    derivative of order - 1 (computed with your grad); rule(x, dy) at 1."""
    want = {}
    for m in range(1, k + 1):

        def value(m=m):
            y = derivative(f, sources, dys, m - 1)[0] if m > 1 else f(xv + 0)
            return tf.reduce_sum(dys[m] * y)

        in_x = slope(value, sources[:1], dirs[:1])
        if m == 1 and rule is not None:
            in_x = np.sum(rule(xv + 0, tf.constant(dys[1])) * dirs[0])
        want[m] = in_x, in_x + slope(value, sources[1:], dirs[1:])
    return want


def check_gradient(f, x, k=2, rule=None, variables=(), tol=1e-6, saved=None):
    """Print and return {(context, order): (ok, largest error, note)}.
    x: an input, or a generator of inputs of one shape (compiled code is
    traced at the first); rule(x, dy): the intended gradient in x (default:
    differences); variables: the tf.Variables f reads; saved: SavedModelCheck.
    Each derivative is compared along random directions, with a random dy."""
    rows, run = {}, None
    for point in x if hasattr(x, "__next__") else [x]:
        point = tf.constant(point, tf.float64)
        if run is None:  # the first input: dy, directions, the contexts
            xv, rand = tf.Variable(point), np.random.default_rng(0).uniform
            sources = [xv, *variables]
            dirs = [rand(0.5, 1.5, s.shape) for s in sources]
            dys = {m: rand(0.5, 1.5, point.shape) for m in range(2, k + 1)}
            dys[1] = rand(0.5, 1.5, f(point).shape)  # the upstream gradient
            run = contexts(f, xv, sources, dys, dirs, k)
        xv.assign(point)
        want = reference(f, xv, sources, dys, dirs, k, rule)
        if saved is not None:
            saved.add(f, xv, variables, dys[1], dirs, want[1][1], tol)
        for (name, m), go in run.items():
            expected = want[m][0 if name in X_ONLY else 1]
            try:
                error, note = abs(float(go()) - expected), ""
            except Exception as e:  # noqa: BLE001 -- reported, not raised
                error, note = np.nan, f"{type(e).__name__}: {e}".splitlines()[0]
            old = rows.get((name, m), (True, 0.0, ""))
            ok = old[0] and error <= tol * (1 + abs(expected))
            rows[name, m] = (ok, np.maximum(old[1], error), old[2] or note[:60])
    for (name, m), (ok, error, note) in rows.items():
        verdict = "OK" if ok else "MISMATCH"
        line = f"  {name:12} order {m}: error {shown(error, ok):7} {verdict}"
        print(f"{line} {note}".rstrip())
    print(f"  keyword tensors: not checked, see {ERRORS}#keyword-arguments")
    return rows


CHILD = """import json, sys, tensorflow as tf
m, out = tf.saved_model.load(sys.argv[1]), []
for i, x, dy, dirs in json.load(sys.stdin):
    x = tf.constant(x, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = getattr(m, f"f{i}")(x)
    sources, dy = [x, *getattr(m, f"v{i}")], tf.constant(dy, tf.float64)
    g = tape.gradient(y, sources, dy, unconnected_gradients="zero")
    out.append(sum(float(tf.reduce_sum(a * b)) for a, b in zip(g, dirs)))
print(json.dumps(out))"""


class SavedModelCheck:
    """Collects checks; run() reloads them all in one fresh process."""

    def __init__(self):
        self.module, self.functions, self.cases = tf.Module(), [], []

    def add(self, f, xv, variables, dy, dirs, want, tol):
        if not self.functions or self.functions[-1] is not f:  # traced now
            i, spec = len(self.functions), tf.TensorSpec(xv.shape, tf.float64)
            traced = tf.function(lambda x: f(x), input_signature=[spec])
            traced.get_concrete_function()
            setattr(self.module, f"f{i}", traced)
            setattr(self.module, f"v{i}", list(variables))
            self.functions.append(f)
        data = xv.numpy().tolist(), dy.tolist(), [d.tolist() for d in dirs]
        self.cases.append((len(self.functions) - 1, *data, want, tol))

    def run(self):
        """Print and return [(name, ok, largest error)], one per function."""
        path = tempfile.mkdtemp()
        tf.saved_model.save(self.module, path)
        cases = json.dumps([case[:4] for case in self.cases])
        child = [sys.executable, "-c", CHILD, path]
        done = subprocess.run(
            child, input=cases, capture_output=True, text=True
        )
        if done.returncode:
            raise RuntimeError(done.stderr[-2000:])
        rows = [
            [getattr(f, "__name__", "f"), True, 0.0] for f in self.functions
        ]
        for (i, *_, want, tol), got in zip(self.cases, json.loads(done.stdout)):
            error = abs(got - want)
            rows[i][1] &= bool(error <= tol * (1 + abs(want)))
            rows[i][2] = max(rows[i][2], error)
        for name, ok, error in rows:
            verdict = "OK" if ok else "MISMATCH"
            print(
                f"  {name}: SavedModel order 1: error {shown(error, ok)} {verdict}"
            )
        return [tuple(row) for row in rows]


# --8<-- [end:check]


# --8<-- [start:recipe]
@tf.custom_gradient
def safe_logsumexp(x):
    """tf.reduce_logsumexp(x, axis=-1); gradient 0 in a row that is all -inf."""

    def grad(dy):
        y = safe_logsumexp(tf.identity(x))[..., None]  # order 2: see the page
        empty = tf.equal(y, -np.inf)  # every entry of the row is -inf
        y = tf.where(empty, tf.zeros_like(y), y)  # no -inf - (-inf)
        return dy[..., None] * tf.exp(x - y)  # softmax; exp(-inf) = 0

    return tf.reduce_logsumexp(x, axis=-1), grad


# --8<-- [end:recipe]


# --8<-- [start:proof]
# The proof: the masked total of the problem through the recipe, orders 1
# and 2, against float64 central differences (row 0 has a -inf, row 1 all)
LOG_MASK = np.array([[0.0, 0.0, -np.inf], [-np.inf, -np.inf, -np.inf]])


def total(a):
    return safe_logsumexp(safe_logsumexp(a + LOG_MASK))


print("the masked total, row 1 all -inf, orders 1 and 2:")
check_gradient(total, [[0.5, -1.0, 2.0], [1.0, 0.0, 3.0]], k=2)

# Forward mode where it would use grad: an eager accumulator around a
# tf.function that calls the recipe
a = tf.constant([[0.5, -1.0, 2.0], [1.0, 0.0, 3.0]], tf.float64)
with tf.autodiff.ForwardAccumulator(a, tf.ones_like(a)) as acc:
    y = tf.function(total)(a)
print(f"forward mode around a tf.function: {acc.jvp(y):.4f}")
# --8<-- [end:proof]
