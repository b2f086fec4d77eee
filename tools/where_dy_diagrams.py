"""Draw the "where dy comes from" diagrams from the numbers the snippets really printed.

Reads the kept outputs (stdout) of two snippets and writes four SVG files, one per diagram and language:

    snippets/where_dy_comes_from/07_chain_of_two.out   -> docs/assets/diagrams/where-dy-chain-{en,ru}.svg
    snippets/where_dy_comes_from/06_two_consumers.out  -> docs/assets/diagrams/where-dy-fork-{en,ru}.svg

Every number in a diagram is copied as text from a line of that output, so a diagram cannot show a value the
code did not print. Standard library only; no TensorFlow needed.

    python tools/where_dy_diagrams.py          # (re)write the SVG files (part of `make outputs`)
    python tools/where_dy_diagrams.py --check  # exit 1 if a committed SVG differs from what it would write

tests/where_dy_comes_from/test_diagrams.py runs the same functions in memory.
"""

from __future__ import annotations

import math
import re
import sys
from html import escape
from pathlib import Path

if not __package__:  # run as `python tools/where_dy_diagrams.py`: let it import the tools package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.svg import INK, MUTED, ORANGE, ROOT, Svg, check_requested, write_or_check

SNIPPETS = ROOT / "snippets" / "where_dy_comes_from"
CHAIN_OUT = SNIPPETS / "07_chain_of_two.out"
FORK_OUT = SNIPPETS / "06_two_consumers.out"
INPUTS = (CHAIN_OUT, FORK_OUT)  # kept outputs it draws from (tools/diagrams.py --only)
OUT_DIR = ROOT / "docs" / "assets" / "diagrams"
COMMAND = "make outputs ONLY=snippets/where_dy_comes_from  (or: python tools/where_dy_diagrams.py)"
LANGS = ("en", "ru")

NUM = r"(-?\d+\.\d+)"

# What each diagram reads from its snippet's output: name -> regular expression with one group per number.
CHAIN_PATTERNS = {
    "forward_log": rf"^forward: log1pexp\(x = {NUM}\) -> y = {NUM}, stores e = {NUM}$",
    "forward_square": rf"^forward: square\(y = {NUM}\) -> L = {NUM}, stores y = {NUM}$",
    "backward_square": rf"^backward: square grad gets dy = {NUM}, returns 2 \* y \* dy = {NUM}$",
    "backward_log": rf"^backward: log1pexp grad gets dy = {NUM}, returns dy \* sigmoid\(x\) = {NUM} \* {NUM} = {NUM}$",
}
FORK_PATTERNS = {
    "forward": rf"^forward pass done: y = {NUM}, a = 3\*y = {NUM}, b = y\*\*2 = {NUM}, L = a \+ b = {NUM}$",
    "grad_a": rf"^tape\.gradient\(a, x\):\n  backward: grad runs, dy = {NUM}$",
    "grad_b": rf"^tape\.gradient\(b, x\):\n  backward: grad runs, dy = {NUM}$",
    "grad_L": rf"^tape\.gradient\(L, x\):\n  backward: grad runs, dy = {NUM}\n  result = {NUM}$",
    "x": rf"^forward: log1pexp runs, x = {NUM}$",
}


class OutputChanged(ValueError):
    """The snippet output no longer has the lines a diagram is drawn from."""


def _extract(text: str, patterns: dict[str, str], source: Path) -> dict[str, tuple[str, ...]]:
    found = {}
    for name, pattern in patterns.items():
        match = re.search(pattern, text, flags=re.MULTILINE)
        if not match:
            raise OutputChanged(
                f"{source.relative_to(ROOT)}: no line matches {pattern!r}; update the snippet or "
                f"CHAIN_PATTERNS/FORK_PATTERNS in tools/where_dy_diagrams.py"
            )
        found[name] = match.groups()
    return found


def chain_numbers(text: str) -> dict[str, str]:
    """Numbers of the chain diagram, as printed by 07_chain_of_two.py."""
    f = _extract(text, CHAIN_PATTERNS, CHAIN_OUT)
    x, y, e = f["forward_log"]
    y2, L, stored_y = f["forward_square"]
    dy_square, dy_log = f["backward_square"]
    dy_log2, dy_log3, sigmoid, dx = f["backward_log"]
    if not (y == y2 == stored_y and dy_log == dy_log2 == dy_log3):
        raise OutputChanged(f"{CHAIN_OUT.relative_to(ROOT)}: the trace is no longer a consistent chain")
    return {"x": x, "y": y, "e": e, "L": L, "dy_square": dy_square, "dy_log": dy_log, "sigmoid": sigmoid, "dx": dx}


def fork_numbers(text: str) -> dict[str, str]:
    """Numbers of the fork diagram, as printed by 06_two_consumers.py."""
    f = _extract(text, FORK_PATTERNS, FORK_OUT)
    y, a, b, L = f["forward"]
    (from_a,), (from_b,) = f["grad_a"], f["grad_b"]
    dy, dx = f["grad_L"]
    (x,) = f["x"]
    return {"x": x, "y": y, "a": a, "b": b, "L": L, "from_a": from_a, "from_b": from_b, "dy": dy, "dx": dx}


# ---- words ---------------------------------------------------------------------------------------------

TEXT = {
    "en": {
        "chain_title": "Chain rule in L = square(log1pexp(x)), numbers from 07_chain_of_two.py",
        "chain_desc": (
            "Top row, left to right, the forward pass: x = {x}, log1pexp stores e = {e} and gives y = {y}, "
            "square stores y and gives L = {L}. Bottom row, right to left, the backward pass started by "
            "tape.gradient(L, x): square's grad receives dy = {dy_square} and returns 2·y·dy = {dy_log}; "
            "that result is the dy log1pexp's grad receives, which returns dy·σ(x) = {dy_log} · {sigmoid} "
            "= {dx} = dL/dx."
        ),
        "stores": "stores",
        "starts": "tape.gradient(L, x)",
        "starts2": "starts with 1",
        "legend_fwd": "forward pass: values, computed once",
        "legend_bwd": "backward pass: dy, made by tape.gradient",
        "legend_stored": "kept from the forward pass for grad",
        "fork_title": "One output, two consumers: L = 3·y + y², numbers from 06_two_consumers.py",
        "fork_desc": (
            "Forward pass: x = {x}, y = log1pexp(x) = {y}; y feeds two consumers, a = 3·y = {a} and "
            "b = y² = {b}; L = a + b = {L}. Backward pass: the a branch sends {from_a} back to y and the "
            "b branch sends {from_b}; the tape adds them, {from_a} + {from_b} = {dy}, and calls "
            "log1pexp's grad once with dy = {dy}, which returns dL/dx = {dx}."
        ),
        "sum_note": "the tape adds them, then calls grad once",
    },
    "ru": {
        "chain_title": "Цепное правило для L = square(log1pexp(x)), числа из 07_chain_of_two.py",
        "chain_desc": (
            "Верхний ряд, слева направо, — прямой проход: x = {x}, log1pexp сохраняет e = {e} и выдаёт "
            "y = {y}, square сохраняет y и выдаёт L = {L}. Нижний ряд, справа налево, — обратный проход, "
            "который запускает tape.gradient(L, x): grad функции square получает dy = {dy_square} и "
            "возвращает 2·y·dy = {dy_log}; этот результат и есть dy, который получает grad функции log1pexp; "
            "тот возвращает dy·σ(x) = {dy_log} · {sigmoid} = {dx} = dL/dx."
        ),
        "stores": "хранит",
        "starts": "tape.gradient(L, x)",
        "starts2": "начинает с 1",
        "legend_fwd": "прямой проход: значения, считаются один раз",
        "legend_bwd": "обратный проход: dy, его создаёт tape.gradient",
        "legend_stored": "сохранено в прямом проходе для grad",
        "fork_title": "Один выход, два потребителя: L = 3·y + y², числа из 06_two_consumers.py",
        "fork_desc": (
            "Прямой проход: x = {x}, y = log1pexp(x) = {y}; y идёт в два места: a = 3·y = {a} и "
            "b = y² = {b}; L = a + b = {L}. Обратный проход: ветка a возвращает к y {from_a}, ветка b — "
            "{from_b}; лента складывает их, {from_a} + {from_b} = {dy}, и один раз вызывает grad функции "
            "log1pexp с dy = {dy}; он возвращает dL/dx = {dx}."
        ),
        "sum_note": "лента складывает их и один раз вызывает grad",
    },
}

# ---- drawing -------------------------------------------------------------------------------------------

FWD = "#1d4ed8"  # blue: forward values
BWD = ORANGE  # deep orange: dy flowing back
ARROW_COLORS = {"fwd": FWD, "bwd": BWD, "muted": MUTED}
SANS = "DejaVu Sans, Segoe UI, Helvetica, Arial, sans-serif"  # this tool's fonts, not those of tools/svg.py
MONO = "DejaVu Sans Mono, Consolas, Menlo, monospace"


class WhereDySvg(Svg):
    """The diagrams' own style and shapes: a framed card, coordinates written short (:g), text centred by default
    that inherits the ink colour, boxes with centred lines, and the legend of arrow kinds."""

    def __init__(self, width: int, height: int, title: str, desc: str, ident: str):
        super().__init__(width, height, title, desc, ident, font_family=SANS)
        self.markers(ARROW_COLORS)
        # A light card of its own: the diagram reads the same on the light and the dark palette.
        self.parts.append(
            f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="14" fill="#ffffff" stroke="#d0d7de"/>'
        )

    def text(self, x, y, content, size=14, color=INK, anchor="middle", mono=False, bold=False):
        attrs = [f'x="{x:g}"', f'y="{y:g}"', f'text-anchor="{anchor}"']
        if size != 14:
            attrs.append(f'font-size="{size}"')
        if color != INK:
            attrs.append(f'fill="{color}"')
        if mono:
            attrs.append(f'font-family="{MONO}"')
        if bold:
            attrs.append('font-weight="bold"')
        self.parts.append(f"<text {' '.join(attrs)}>{escape(content)}</text>")

    def box(self, cx, cy, w, h, lines, fill, stroke, rx=10):
        """A rectangle with lines of (text, colour, mono, bold) centred in it."""
        self.rect(f"{cx - w / 2:g}", f"{cy - h / 2:g}", f"{w:g}", f"{h:g}", fill, stroke, rx=rx)
        step = 19
        top = cy - step * (len(lines) - 1) / 2 + 5
        for i, (content, color, mono, bold) in enumerate(lines):
            self.text(cx, top + i * step, content, size=14, color=color, mono=mono, bold=bold)

    def arrow(self, x1, y1, x2, y2, kind, dashed=False):
        self.line(
            f"{x1:g}",
            f"{y1:g}",
            f"{x2:g}",
            f"{y2:g}",
            ARROW_COLORS[kind],
            2.2,
            f"{self.ident}-{kind}",
            "5 4" if dashed else None,
        )

    def legend(self, x, y, t, stored=True):
        items = [("fwd", False, t["legend_fwd"]), ("bwd", False, t["legend_bwd"])]
        if stored:
            items.append(("muted", True, t["legend_stored"]))
        for i, (kind, dashed, label) in enumerate(items):
            row = y + i * 22
            self.arrow(x, row - 5, x + 34, row - 5, kind, dashed)
            self.text(x + 44, row, label, size=13, color=MUTED, anchor="start")


VALUE_FILL, VALUE_STROKE = "#f6f8fa", "#8c959f"
FWD_FILL, BWD_FILL = "#eff4ff", "#fff4ed"


def chain_svg(n: dict[str, str], lang: str) -> str:
    t = TEXT[lang]
    svg = WhereDySvg(900, 390, t["chain_title"], t["chain_desc"].format(**n), f"dy-chain-{lang}")
    svg.text(24, 34, t["chain_title"], size=15, anchor="start", bold=True)
    top, bottom, vw, fw, h = 105, 255, 116, 150, 58
    xs = [78, 252, 426, 600, 800]  # x, log1pexp, y, square, L  (and the grads under them)
    # forward row
    svg.box(xs[0], top, vw, h, [("x", FWD, True, False), (n["x"], FWD, True, True)], VALUE_FILL, VALUE_STROKE)
    svg.box(xs[1], top, fw, h, [("log1pexp", INK, True, True), ("y = log(1 + e)", MUTED, True, False)], FWD_FILL, FWD)
    svg.box(xs[2], top, vw, h, [("y", FWD, True, False), (n["y"], FWD, True, True)], VALUE_FILL, VALUE_STROKE)
    svg.box(xs[3], top, fw, h, [("square", INK, True, True), ("L = y · y", MUTED, True, False)], FWD_FILL, FWD)
    svg.box(xs[4], top, vw, h, [("L", FWD, True, False), (n["L"], FWD, True, True)], VALUE_FILL, VALUE_STROKE)
    widths = [vw, fw, vw, fw, vw]
    for i in range(4):
        svg.arrow(xs[i] + widths[i] / 2 + 3, top, xs[i + 1] - widths[i + 1] / 2 - 4, top, "fwd")
    # backward row, right to left
    svg.box(
        xs[4], bottom, vw, h, [("dy", BWD, True, False), (n["dy_square"], BWD, True, True)], VALUE_FILL, VALUE_STROKE
    )
    svg.box(
        xs[3],
        bottom,
        fw,
        h,
        [("grad: 2·y·dy", INK, True, True), (f"2·{n['y']}·{n['dy_square']}", MUTED, True, False)],
        BWD_FILL,
        BWD,
    )
    svg.box(xs[2], bottom, vw, h, [("dy", BWD, True, False), (n["dy_log"], BWD, True, True)], VALUE_FILL, VALUE_STROKE)
    svg.box(
        xs[1],
        bottom,
        fw,
        h,
        [("grad: dy·σ(x)", INK, True, True), (f"{n['dy_log']}·{n['sigmoid']}", MUTED, True, False)],
        BWD_FILL,
        BWD,
    )
    svg.box(xs[0], bottom, vw, h, [("dL/dx", BWD, True, False), (n["dx"], BWD, True, True)], VALUE_FILL, VALUE_STROKE)
    for i in range(4, 0, -1):
        svg.arrow(xs[i] - widths[i] / 2 - 3, bottom, xs[i - 1] + widths[i - 1] / 2 + 4, bottom, "bwd")
    # what the forward pass leaves for the backward pass
    y1, y2 = top + h / 2 + 4, bottom - h / 2 - 5
    for i, label, side in ((1, f"{t['stores']} e = {n['e']}", 1), (3, f"{t['stores']} y = {n['y']}", -1)):
        svg.arrow(xs[i], y1, xs[i], y2, "muted", dashed=True)
        svg.text(
            xs[i] + 8 * side,
            (y1 + y2) / 2 + 5,
            label,
            size=13,
            color=MUTED,
            anchor="start" if side > 0 else "end",
            mono=True,
        )
    svg.arrow(xs[4], y1, xs[4], y2, "bwd", dashed=True)
    svg.text(xs[4] - 8, (y1 + y2) / 2 - 4, t["starts"], size=13, color=BWD, anchor="end", mono=True)
    svg.text(xs[4] - 8, (y1 + y2) / 2 + 13, t["starts2"], size=13, color=BWD, anchor="end")
    svg.legend(30, 318, t)
    return svg.render()


def _edge(cx, cy, w, h, ux, uy):
    """Where a ray from a box's centre in direction (ux, uy) leaves the box."""
    candidates = []
    if ux:
        candidates.append((w / 2) / abs(ux))
    if uy:
        candidates.append((h / 2) / abs(uy))
    s = min(candidates)
    return cx + ux * s, cy + uy * s


def _pair(svg, a, b, gap=5.5):
    """A forward arrow a -> b and, just below it, a backward arrow b -> a. Returns the backward midpoint."""
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux  # perpendicular: "below" for a left-to-right arrow
    sx, sy = _edge(ax, ay, aw + 8, ah + 8, ux, uy)
    ex, ey = _edge(bx, by, bw + 8, bh + 8, -ux, -uy)
    svg.arrow(sx - nx * gap, sy - ny * gap, ex - nx * gap, ey - ny * gap, "fwd")
    svg.arrow(ex + nx * gap, ey + ny * gap, sx + nx * gap, sy + ny * gap, "bwd")
    return (sx + ex) / 2 + nx * gap, (sy + ey) / 2 + ny * gap, nx, ny


def fork_svg(n: dict[str, str], lang: str) -> str:
    t = TEXT[lang]
    svg = WhereDySvg(960, 450, t["fork_title"], t["fork_desc"].format(**n), f"dy-fork-{lang}")
    svg.text(24, 34, t["fork_title"], size=15, anchor="start", bold=True)
    vw, fw, h = 150, 130, 58
    X, LOG, Y = (95, 215, vw, h), (280, 215, fw, h), (465, 215, vw, h)
    A, B, L = (700, 105, fw, h), (700, 325, fw, h), (870, 215, 150, h)

    def value(name, v, g):
        return [(f"{name} = {v}", FWD, True, True), (g, BWD, True, True)]

    svg.box(X[0], X[1], vw, h, value("x", n["x"], f"dL/dx = {n['dx']}"), VALUE_FILL, VALUE_STROKE)
    svg.box(
        LOG[0], LOG[1], fw, h, [("log1pexp", INK, True, True), ("grad: dy·σ(x)", MUTED, True, False)], FWD_FILL, FWD
    )
    svg.box(Y[0], Y[1], vw, h, value("y", n["y"], f"dy = {n['dy']}"), VALUE_FILL, VALUE_STROKE)
    svg.box(A[0], A[1], fw, h, [("a = 3·y", INK, True, True), (n["a"], FWD, True, True)], FWD_FILL, FWD)
    svg.box(B[0], B[1], fw, h, [("b = y²", INK, True, True), (n["b"], FWD, True, True)], FWD_FILL, FWD)
    svg.box(
        L[0],
        L[1],
        150,
        h,
        [(f"L = {n['L']}", FWD, True, True), ("dL/dL = 1", BWD, True, True)],
        VALUE_FILL,
        VALUE_STROKE,
    )
    _pair(svg, X, LOG)
    _pair(svg, LOG, Y)
    _pair(svg, A, L)
    _pair(svg, B, L)
    for branch, amount in ((A, n["from_a"]), (B, n["from_b"])):
        mx, my, nx, ny = _pair(svg, Y, branch)
        svg.text(mx + nx * 22, my + ny * 22 + 5, amount, size=15, color=BWD, mono=True, bold=True)
    # the sum at y
    svg.text(
        Y[0] - 40,
        Y[1] + h / 2 + 48,
        f"{n['from_a']} + {n['from_b']} = {n['dy']}",
        size=15,
        color=BWD,
        mono=True,
        bold=True,
    )
    svg.text(Y[0] - 40, Y[1] + h / 2 + 68, t["sum_note"], size=13, color=MUTED)
    svg.legend(30, 400, t, stored=False)
    return svg.render()


def expected_files() -> dict[Path, str]:
    """Every SVG this script writes, with the text it would write (from the kept outputs on disk)."""
    chain = chain_numbers(CHAIN_OUT.read_text(encoding="utf-8"))
    fork = fork_numbers(FORK_OUT.read_text(encoding="utf-8"))
    files = {}
    for lang in LANGS:
        files[OUT_DIR / f"where-dy-chain-{lang}.svg"] = chain_svg(chain, lang)
        files[OUT_DIR / f"where-dy-fork-{lang}.svg"] = fork_svg(fork, lang)
    return files


def main(argv=None) -> int:
    return write_or_check(expected_files(), check_requested(__doc__, argv), COMMAND)


if __name__ == "__main__":
    sys.exit(main())
