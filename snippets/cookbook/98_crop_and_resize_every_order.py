"""tf.image.crop_and_resize with exact gradients in image and boxes at every order, proven."""

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
def sample(image, boxes, box_indices, crop_size, extrapolation_value=0.0):
    """The CropAndResize kernel (bilinear) in plain TF ops, in image.dtype
    (so a float16 image goes in as float32): each box's grid of points, the
    4 pixels around each point (gather_nd), the bilinear weights."""
    dtype, shape = image.dtype, tf.shape(image)
    h, w = tf.cast(shape[1] - 1, dtype), tf.cast(shape[2] - 1, dtype)
    y1, x1, y2, x2 = tf.unstack(tf.cast(boxes, dtype)[:, :, None], axis=1)

    def points(a, b, size, n):  # the kernel's in_y / in_x, [boxes, n]
        if n == 1:
            return 0.5 * (a + b) * size
        return a * size + tf.range(n, dtype=dtype) * (b - a) * size / (n - 1)

    y = points(y1, y2, h, crop_size[0])[:, :, None]  # [boxes, ch, 1]
    x = points(x1, x2, w, crop_size[1])[:, None, :]  # [boxes, 1, cw]
    inside = (y >= 0) & (y <= h) & (x >= 0) & (x <= w)
    y, x = tf.clip_by_value(y, 0, h), tf.clip_by_value(x, 0, w)
    y0, x0 = tf.floor(y), tf.floor(x)
    y1i, x1i = tf.math.ceil(y), tf.math.ceil(x)  # as the kernel: ceil
    grid = tf.shape(inside)
    b = tf.broadcast_to(tf.reshape(box_indices, [-1, 1, 1]), grid)

    def read(yi, xi):
        yi, xi = (tf.broadcast_to(tf.cast(i, tf.int32), grid) for i in (yi, xi))
        return tf.gather_nd(image, tf.stack([b, yi, xi], -1))

    fy, fx = (y - y0)[..., None], (x - x0)[..., None]
    top_left, top_right = read(y0, x0), read(y0, x1i)
    bottom_left, bottom_right = read(y1i, x0), read(y1i, x1i)
    top = top_left + (top_right - top_left) * fx
    bottom = bottom_left + (bottom_right - bottom_left) * fx
    fill = tf.cast(extrapolation_value, dtype)
    return tf.where(inside[..., None], top + (bottom - top) * fy, fill)


def crop_and_resize(
    image, boxes, box_indices, crop_size, extrapolation_value=0.0
):
    """tf.image.crop_and_resize (bilinear) with exact gradients in image and
    boxes at every order; the output is the kernel's (float32)."""

    @tf.custom_gradient
    def crop(image, boxes):
        def grad(dy):  # the gradient of sample, which has TF's derivatives
            with tf.GradientTape() as tape:
                tape.watch([image, boxes])
                y = sample(
                    image, boxes, box_indices, crop_size, extrapolation_value
                )
            return tape.gradient(
                y, [image, boxes], output_gradients=tf.cast(dy, image.dtype)
            )

        y = tf.image.crop_and_resize(
            image,
            tf.cast(boxes, tf.float32),
            box_indices,
            crop_size,
            extrapolation_value=extrapolation_value,
        )
        return y, grad

    return crop(image, boxes)


# --8<-- [end:recipe]


# --8<-- [start:proof]
# The proof on a 5 x 5 image and two boxes (the second reaches outside the
# image), p = [the 25 pixels, the 8 box numbers], in float64. Reference at
# order 1: central differences of sample, which agrees with the kernel to
# float32 rounding; order 2 (the check's default): differences of order 1
SHAPE, CROP = (1, 5, 5, 1), [3, 4]
pixels = np.random.default_rng(0).uniform(size=25)
box_numbers = [0.1, 0.2, 0.8, 0.9, -0.15, 0.3, 0.55, 1.2]
p0 = np.concatenate([pixels, box_numbers])
INDICES = tf.constant([0, 0])


def split(p):
    return tf.reshape(p[:25], SHAPE), tf.reshape(p[25:], [2, 4])


def roi(p):  # the kernel's float32 output, cast for the float64 check
    return tf.cast(crop_and_resize(*split(p), INDICES, CROP), tf.float64)


def sample_differences(p, dy, h=1e-6):
    e = np.eye(33)
    ends = [
        tf.reduce_sum(dy * sample(*split(p + s * h * e[i]), INDICES, CROP))
        for i in range(33)
        for s in (1, -1)
    ]
    return tf.stack(
        [(ends[2 * i] - ends[2 * i + 1]) / (2 * h) for i in range(33)]
    )


p = tf.constant(p0)
image, boxes = split(p)
kernel = tf.image.crop_and_resize(
    image, tf.cast(boxes, tf.float32), INDICES, CROP
)
gap = np.abs(kernel.numpy() - sample(image, boxes, INDICES, CROP)).max()
print(f"sample - the kernel {gap:.1e}; the check, orders 1 and 2:")
check_gradient(roi, p0, k=2, rule=sample_differences)


def maml_like(p, crop=crop_and_resize):  # order 2 in the image, as in MAML
    image, boxes = split(p)
    with tf.GradientTape() as tape:
        tape.watch(image)
        y = tf.reduce_sum(tf.sin(crop(image, boxes, INDICES, CROP)))
    return tf.reduce_sum(tape.gradient(y, image) ** 2)


with tf.GradientTape() as tape:  # reference: differences of the same with
    tape.watch(p)  # sample in float64 (no kernel, no custom gradient)
    penalty = maml_like(p)
got, e = tape.gradient(penalty, p)[:25], np.eye(33) * 1e-6
want = [
    (maml_like(p + e[i], sample) - maml_like(p - e[i], sample)) / 2e-6
    for i in range(25)
]
error = np.abs(got - want).max()
print(f"MAML-like |d/dx sum(sin(crop))|^2, order 2 in x: error {error:.0e}")
# --8<-- [end:proof]
