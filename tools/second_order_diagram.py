"""Draw the second-order chapter's picture: the three passes of the docstring's op_with_fused_backprop.

Writes one SVG per language (labels in the page's language, same drawing):

    docs/assets/diagrams/second-order-passes.en.svg
    docs/assets/diagrams/second-order-passes.ru.svg

The picture has no numbers, only the structure (which function runs in which pass, what goes in, what comes out),
so it does not depend on any snippet output. Standard library only.

    python tools/second_order_diagram.py          # (re)write the SVG files
    python tools/second_order_diagram.py --check  # exit 1 if a committed SVG differs from what it would write

tests/second_order/test_diagram.py runs the same function in memory.
"""

from __future__ import annotations

import sys
from pathlib import Path

if not __package__:  # run as `python tools/second_order_diagram.py`: let it import the tools package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.svg import BLUE, LANE_FILL, MUTED, ORANGE, PURPLE, ROOT, Svg, check_requested, write_or_check

OUT_DIR = ROOT / "docs" / "assets" / "diagrams"
LANGS = ("en", "ru")

FWD = BLUE  # forward pass
BWD = ORANGE  # first backward pass (the site's accent)
BWD2 = PURPLE  # second backward pass
ARROW_COLORS = {"fwd": FWD, "bwd": BWD, "bwd2": BWD2, "muted": MUTED}

TEXT = {
    "en": {
        "title": "The docstring's second-order example: three passes, three functions",
        "desc": (
            "Three rows, one per pass. Row 1, forward pass: x goes into op_with_fused_backprop, where fused_op "
            "computes y = f(x) and x_grad = f'(x) at once; it returns y and the function first_order_gradient. "
            "Row 2, first backward pass (inner tape): the tape calls first_order_gradient(dy); it returns "
            "dy times first_order_custom(x), whose value is x_grad, so the first derivative is dy·f'(x); x is "
            "passed in (as unused_x) only so the tape records an edge from x. Row 3, second backward pass (outer "
            "tape): the tape calls second_order_and_transpose(ddy), which returns one value per input of "
            "first_order_custom: for x the second-order term ddy·dy·f''(x), and, if dy is an input too, for dy "
            "the term ddy·f'(x), the 'transpose' that forward mode uses."
        ),
        "lane": ["1 · forward pass", "2 · first backward pass", "3 · second backward pass"],
        "lane2": ["", "inner tape: tape.gradient(y, x)", "outer tape: tape.gradient(dy_dx, x)"],
        "fused": "one fused kernel: f and f′ together",
        "returns": "returns",
        "unused": "x goes in only to link x → x_grad on the tape",
        "first": "first derivative",
        "return": "return (for x, for dy)",
        "for_x": "for x: second-order term",
        "for_dy": "for dy: the “transpose”",
        "for_dy2": "(only if dy is an input; forward mode uses it)",
        "ddy_from": "from the outer tape",
        "dy_from": "from the inner tape",
    },
    "ru": {
        "title": "Пример второго порядка из docstring: три прохода, три функции",
        "desc": (
            "Три строки, по одной на проход. Строка 1, прямой проход: x входит в op_with_fused_backprop, где "
            "fused_op за один раз вычисляет y = f(x) и x_grad = f'(x); функция возвращает y и функцию "
            "first_order_gradient. Строка 2, первый обратный проход (внутренняя лента): лента вызывает "
            "first_order_gradient(dy); та возвращает dy, умноженный на first_order_custom(x), значение которого "
            "равно x_grad, поэтому первая производная равна dy·f'(x); x передаётся (как unused_x) только затем, "
            "чтобы лента записала ребро от x. Строка 3, второй обратный проход (внешняя лента): лента вызывает "
            "second_order_and_transpose(ddy), которая возвращает по одному значению на каждый вход "
            "first_order_custom: для x — член второго порядка ddy·dy·f''(x), а если dy тоже вход, то для dy — "
            "член ddy·f'(x), «транспонирование», которым пользуется прямой режим."
        ),
        "lane": ["1 · прямой проход", "2 · первый обратный проход", "3 · второй обратный проход"],
        "lane2": ["", "внутренняя лента: tape.gradient(y, x)", "внешняя лента: tape.gradient(dy_dx, x)"],
        "fused": "одно слитое ядро: f и f′ вместе",
        "returns": "возвращает",
        "unused": "x нужен лишь для связи x → x_grad на ленте",
        "first": "первая производная",
        "return": "return (для x, для dy)",
        "for_x": "для x: член второго порядка",
        "for_dy": "для dy: «транспонирование»",
        "for_dy2": "(если dy — вход; его читает прямой режим)",
        "ddy_from": "от внешней ленты",
        "dy_from": "от внутренней ленты",
    },
}


class PassesSvg(Svg):
    """The picture's own shapes: arrows coloured by pass, and pills (a value's name in a rounded box)."""

    def __init__(self, width: int, height: int, title: str, desc: str, ident: str):
        super().__init__(width, height, title, desc, ident)
        self.markers(ARROW_COLORS)
        self.white_background()

    def arrow(self, x1, y1, x2, y2, kind, dashed=False):
        self.line(x1, y1, x2, y2, ARROW_COLORS[kind], 2, f"{self.ident}-{kind}", "6 4" if dashed else None)

    def pill(self, cx, cy, label, color):
        w = 16 + 9 * len(label)
        self.rect(cx - w / 2, cy - 15, w, 30, "#ffffff", color, rx=15)
        self.text(cx, cy + 5, label, color=color, anchor="middle", mono=True, bold=True)


def passes_svg(lang: str) -> str:
    t = TEXT[lang]
    width, height = 800, 580
    svg = PassesSvg(width, height, t["title"], t["desc"], f"second-order-passes-{lang}")
    svg.text(20, 32, t["title"], size=16, bold=True)

    lanes = [(48, 132), (194, 196), (404, 164)]  # (top, height) of each pass
    colors = [FWD, BWD, BWD2]
    for i, (top, h) in enumerate(lanes):
        svg.rect(10, top, width - 20, h, LANE_FILL[i])
        svg.text(22, top + 24, t["lane"][i], size=15, color=colors[i], bold=True)
        if t["lane2"][i]:
            svg.text(width - 22, top + 24, t["lane2"][i], size=12, color=MUTED, anchor="end")

    # Row 1: forward pass.
    top, h = lanes[0]
    cy = top + 80
    svg.pill(52, cy, "x", FWD)
    svg.arrow(70, cy, 118, cy, "fwd")
    svg.rect(120, top + 38, 440, 84, "#ffffff", FWD)
    svg.text(134, top + 62, "op_with_fused_backprop(x)", mono=True, bold=True, size=15)
    svg.text(134, top + 86, "y, x_grad = fused_op(x)", mono=True, size=14)
    svg.text(134, top + 110, "y = f(x),  x_grad = f′(x)  ← " + t["fused"], size=13, color=MUTED)
    svg.arrow(562, cy, 692, cy, "fwd")
    svg.pill(720, cy, "y", FWD)

    # Row 2: first backward pass.
    top, h = lanes[1]
    svg.rect(120, top + 38, 440, 148, "#ffffff", BWD)
    svg.text(134, top + 62, "first_order_gradient(dy)", mono=True, bold=True, size=15)
    svg.text(134, top + 86, "return dy * first_order_custom(x)", mono=True, size=14)
    svg.rect(186, top + 100, 364, 78, "#fbfbfd", BWD2, dashed=True)
    svg.text(198, top + 122, "first_order_custom(unused_x)", mono=True, size=14, bold=True)
    svg.text(198, top + 144, "return x_grad, second_order_and_transpose", mono=True, size=12)
    svg.text(198, top + 166, t["unused"], size=12, color=MUTED)
    svg.pill(52, top + 80, "dy", BWD)
    svg.arrow(74, top + 80, 118, top + 80, "bwd")
    svg.pill(52, top + 150, "x", FWD)
    svg.arrow(70, top + 150, 184, top + 150, "fwd")
    svg.arrow(562, top + 80, 640, top + 80, "bwd")
    svg.pill(702, top + 80, "dy·f′(x)", BWD)
    svg.text(702, top + 114, t["first"], size=13, color=BWD, anchor="middle")

    # "returns" links between rows, labelled in the gap between the lanes.
    gap1 = (lanes[0][0] + lanes[0][1] + lanes[1][0]) / 2
    svg.arrow(500, lanes[0][0] + 124, 500, lanes[1][0] + 36, "muted", dashed=True)
    svg.text(508, gap1 + 4, t["returns"] + " first_order_gradient", size=12, color=MUTED)
    gap2 = (lanes[1][0] + lanes[1][1] + lanes[2][0]) / 2
    svg.arrow(380, lanes[1][0] + 180, 380, lanes[2][0] + 40, "muted", dashed=True)
    svg.text(388, gap2 + 4, t["returns"] + " second_order_and_transpose", size=12, color=MUTED)

    # Row 3: second backward pass.
    top, h = lanes[2]
    cy = top + 82
    svg.pill(52, cy, "ddy", BWD2)
    svg.arrow(78, cy, 118, cy, "bwd2")
    svg.rect(120, top + 42, 300, 80, "#ffffff", BWD2)
    svg.text(134, top + 70, "second_order_and_transpose(ddy)", mono=True, bold=True, size=13)
    svg.text(134, top + 98, t["return"], mono=True, size=14)
    svg.arrow(422, cy - 14, 478, top + 50, "bwd2")
    svg.arrow(422, cy + 14, 478, top + 122, "bwd2")
    svg.text(486, top + 50, t["for_x"], size=14, color=BWD2, bold=True)
    svg.text(486, top + 72, "ddy · dy · f″(x)", mono=True, size=14)
    svg.text(486, top + 118, t["for_dy"], size=14, color=BWD2, bold=True)
    svg.text(486, top + 138, "ddy · f′(x)", mono=True, size=14)
    svg.text(486, top + 155, t["for_dy2"], size=12, color=MUTED)
    return svg.render()


def targets() -> dict[Path, str]:
    return {OUT_DIR / f"second-order-passes.{lang}.svg": passes_svg(lang) for lang in LANGS}


INPUTS = ()  # draws from its own data, no kept output (tools/diagrams.py --only)


def main(argv: list[str] | None = None) -> int:
    return write_or_check(targets(), check_requested(__doc__, argv), "python tools/second_order_diagram.py")


if __name__ == "__main__":
    sys.exit(main())
