"""Draw the n-th order chapter's picture: how the orders nest, for each of the three routes.

Writes one SVG per language (labels in the page's language, same drawing):

    docs/assets/diagrams/nth-order-nesting.en.svg
    docs/assets/diagrams/nth-order-nesting.ru.svg

(a) nested tapes: tape 3 records tape 2, which records tape 1, which records y = f(x);
(b) @tf.custom_gradient: make_fn(k)'s grad returns make_fn(k + 1)(x), a function with a custom gradient again;
(c) RegisterGradient: the registered gradient of an op builds an op whose gradient is registered too.
The picture has no numbers, only structure, so it does not depend on snippet outputs. Standard library only.

    python tools/nth_order_diagram.py          # (re)write the SVG files
    python tools/nth_order_diagram.py --check  # exit 1 if a committed SVG differs from what it would write

tests/nth_order/test_diagram.py runs the same function in memory.
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

if not __package__:  # run as `python tools/nth_order_diagram.py`: let it import the tools package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.svg import BLUE, LANE_FILL, MONO, MUTED, ORANGE, PURPLE, RED, ROOT, Svg, check_requested, write_or_check

OUT_DIR = ROOT / "docs" / "assets" / "diagrams"
LANGS = ("en", "ru")
WIDTH, HEIGHT = 760, 692
ARROW_COLORS = {"blue": BLUE, "orange": ORANGE, "purple": PURPLE, "muted": MUTED}

TEXT = {
    "en": {
        "title": "How the orders nest: three routes to the n-th derivative",
        "desc": (
            "Three panels. (a) Nested tapes, nth_derivative(f, x, 3): three boxes one inside another. Tape 1, "
            "innermost, records the forward pass y = f(x) and gives f′(x); tape 2 records tape 1 and its backward "
            "pass and gives f″(x); tape 3, outermost, records everything inside it and gives f‴(x). The innermost "
            "tape finishes first, and tape n differentiates every op of tapes 1 to n−1, so the graph grows with n. "
            "(b) @tf.custom_gradient: a row of functions make_fn(0), make_fn(1), make_fn(2), …, each "
            "computing sin(x + k·π/2); the grad of make_fn(k) returns dy · make_fn(k+1)(x), a function that again "
            "has a custom gradient, so the next tape can differentiate it. (c) RegisterGradient: a row of ops "
            "(k = 0, 1, 2, …); the registered gradient of each op builds the next op, whose gradient is registered "
            "too. If the gradient's op has no gradient of its own, the chain stops and the second derivative is None."
        ),
        "lane": [
            "(a) nested tapes",
            "(b) @tf.custom_gradient: grad returns the next order's custom function",
            "(c) RegisterGradient: the gradient's ops have registered gradients too",
        ],
        "lane_note": ["nth_derivative(f, x, 3)", "", ""],
        "tape": [
            "tape 1 records the forward pass",
            "tape 2 records tape 1 and its backward pass",
            "tape 3 records everything inside it",
        ],
        "forward": "forward pass",
        "right": [
            "The innermost tape finishes first;",
            "each outer tape differentiates the",
            "gradient computed inside it. Tape n",
            "sees every op of tapes 1…n−1,",
            "so the graph grows with n.",
        ],
        "grad": "grad",
        "b_note": [
            "grad(dy) of make_fn(k) returns dy · make_fn(k+1)(x): again a function with a custom",
            "gradient, so the next tape can differentiate it.",
        ],
        "registered": "gradient",
        "op": "op",
        "c_note": [
            ("Each arrow is a registered gradient: it builds the next op, whose gradient is registered too.", MUTED),
            ("If the gradient's op has no gradient of its own (an opaque op), the chain stops:", RED),
            ("the 2nd derivative is None.", RED),
        ],
    },
    "ru": {
        "title": "Как вкладываются порядки: три пути к производной n-го порядка",
        "desc": (
            "Три панели. (a) Вложенные ленты, nth_derivative(f, x, 3): три прямоугольника один внутри другого. "
            "Лента 1, самая внутренняя, записывает прямой проход y = f(x) и даёт f′(x); лента 2 записывает ленту 1 "
            "вместе с её обратным проходом и даёт f″(x); лента 3, внешняя, записывает всё, что внутри неё, и даёт "
            "f‴(x). Первой заканчивает самая внутренняя лента, а лента n дифференцирует все операции лент с 1 по "
            "n−1, поэтому граф растёт с n. (b) @tf.custom_gradient: ряд функций make_fn(0), make_fn(1), make_fn(2), "
            "…, каждая вычисляет sin(x + k·π/2); grad функции make_fn(k) возвращает dy · make_fn(k+1)(x) — "
            "снова функцию с пользовательским градиентом, поэтому следующая лента может её дифференцировать. "
            "(c) RegisterGradient: ряд операций (k = 0, 1, 2, …); зарегистрированный градиент каждой операции строит "
            "следующую операцию, у которой градиент тоже зарегистрирован. Если у операции из градиента нет "
            "собственного градиента, цепочка обрывается и вторая производная равна None."
        ),
        "lane": [
            "(a) вложенные ленты",
            "(b) @tf.custom_gradient: grad возвращает функцию следующего порядка",
            "(c) RegisterGradient: у операций из градиента тоже зарегистрированы градиенты",
        ],
        "lane_note": ["nth_derivative(f, x, 3)", "", ""],
        "tape": [
            "лента 1 записывает прямой проход",
            "лента 2 записывает ленту 1 и её обратный проход",
            "лента 3 записывает всё, что внутри",
        ],
        "forward": "прямой проход",
        "right": [
            "Первой заканчивает внутренняя лента;",
            "каждая внешняя дифференцирует",
            "градиент, посчитанный внутри неё.",
            "Лента n видит операции лент 1…n−1,",
            "поэтому граф растёт с n.",
        ],
        "grad": "grad",
        "b_note": [
            "grad(dy) функции make_fn(k) возвращает dy · make_fn(k+1)(x): снова функцию",
            "с пользовательским градиентом — её продифференцирует следующая лента.",
        ],
        "registered": "градиент",
        "op": "операция",
        "c_note": [
            ("Каждая стрелка — зарегистрированный градиент: он строит следующую операцию,", MUTED),
            ("и её градиент тоже зарегистрирован.", MUTED),
            ("Если у операции из градиента нет своего градиента (непрозрачная операция),", RED),
            ("цепочка обрывается: вторая производная — None.", RED),
        ],
    },
}


class NestingSvg(Svg):
    """The picture's own shapes: coloured arrows with an optional label, and pills (a result in a rounded box)."""

    def __init__(self, title: str, desc: str, ident: str):
        super().__init__(WIDTH, HEIGHT, title, desc, ident)
        self.markers(ARROW_COLORS)
        self.white_background()

    def arrow(self, x1, y1, x2, y2, kind, label=None):
        color = ARROW_COLORS[kind]
        self.line(x1, y1, x2, y2, color, 2, f"{self.ident}-{kind}")
        if label:
            self.text((x1 + x2) / 2, y1 - 8, label, size=12, color=color, anchor="middle")

    def pill(self, cx, cy, label, color):
        w = 24 + 9 * len(label)
        self.rect(cx - w / 2, cy - 15, w, 30, "#ffffff", color, rx=15)
        self.text(cx, cy + 5, label, color=color, anchor="middle", mono=True, bold=True)


def nesting_svg(lang: str) -> str:
    t = TEXT[lang]
    svg = NestingSvg(t["title"], t["desc"], f"nth-order-nesting-{lang}")
    svg.text(20, 34, t["title"], size=16, bold=True)
    lanes = [(52, 270), (336, 150), (500, 182)]
    for i, (top, h) in enumerate(lanes):
        svg.rect(10, top, WIDTH - 20, h, LANE_FILL[i])
        color = (BLUE, ORANGE, PURPLE)[i]
        note = t["lane_note"][i]
        note_part = (
            f'<tspan fill="{MUTED}" font-weight="normal" font-size="12" font-family="{MONO}">   {escape(note)}</tspan>'
            if note
            else ""
        )
        svg.parts.append(
            f'<text x="24" y="{top + 24}" fill="{color}" font-weight="bold">{escape(t["lane"][i])}{note_part}</text>'
        )

    # (a) nested tapes: tape 3 outermost, results on the right.
    top = lanes[0][0]
    boxes = [  # (x, y, w, h, color, label, result)
        (24, top + 40, 444, 214, PURPLE, t["tape"][2], "f‴(x)"),
        (42, top + 84, 408, 156, ORANGE, t["tape"][1], "f″(x)"),
        (60, top + 128, 372, 98, BLUE, t["tape"][0], "f′(x)"),
    ]
    kinds = {PURPLE: "purple", ORANGE: "orange", BLUE: "blue"}
    for x, y, w, h, color, label, result in boxes:
        svg.rect(x, y, w, h, "#ffffff", color, width=2)
        svg.text(x + 12, y + 24, label, size=13, color=color, bold=True)
        svg.arrow(x + w, y + 19, 510, y + 19, kinds[color])
        svg.pill(552, y + 19, result, color)
    svg.rect(78, top + 166, 336, 46, "#f6f8fa", MUTED)
    svg.text(92, top + 194, "y = f(x)", mono=True, bold=True)
    svg.text(402, top + 194, t["forward"], size=12, color=MUTED, anchor="end")
    for i, line in enumerate(t["right"]):
        svg.text(484, top + 192 + 17 * i, line, size=12, color=MUTED)

    # (b) and (c): a row of three functions/ops, each gradient building the next one.
    xs = [24, 264, 504]
    rows = [
        (lanes[1][0], ORANGE, "orange", t["grad"], lambda k: f"make_fn({k})", [(line, MUTED) for line in t["b_note"]]),
        (lanes[2][0], PURPLE, "purple", t["registered"], lambda k: f"{t['op']}, k = {k}", t["c_note"]),
    ]
    for top, color, kind, arrow_label, name, notes in rows:
        for k, x in enumerate(xs):
            svg.rect(x, top + 40, 176, 58, "#ffffff", color, width=2)
            svg.text(x + 88, top + 64, name(k), mono=True, bold=True, anchor="middle")
            svg.text(x + 88, top + 87, f"sin(x + {k}·π/2)", mono=True, size=12, color=MUTED, anchor="middle")
            nxt = xs[k + 1] if k + 1 < len(xs) else 734
            svg.arrow(x + 178, top + 69, nxt - 4, top + 69, kind, label=arrow_label)
        svg.text(748, top + 74, "…", bold=True, anchor="end")
        for i, (line, line_color) in enumerate(notes):
            svg.text(24, top + 120 + 17 * i, line, size=12, color=line_color)
    return svg.render()


def targets() -> dict[Path, str]:
    return {OUT_DIR / f"nth-order-nesting.{lang}.svg": nesting_svg(lang) for lang in LANGS}


INPUTS = ()  # draws from its own data, no kept output (tools/diagrams.py --only)


def main(argv: list[str] | None = None) -> int:
    return write_or_check(targets(), check_requested(__doc__, argv), "python tools/nth_order_diagram.py")


if __name__ == "__main__":
    sys.exit(main())
