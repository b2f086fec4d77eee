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

import argparse
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "docs" / "assets" / "diagrams"
LANGS = ("en", "ru")

SANS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace"
INK = "#1f2328"
MUTED = "#57606a"
FWD = "#0b6bcb"  # forward pass: blue
BWD = "#c2410c"  # first backward pass: deep orange (the site's accent)
BWD2 = "#7e22ce"  # second backward pass: purple
LANE_FILL = ("#eef5fc", "#fdf1ea", "#f5edfc")

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
        "for_x": "для x: член второго порядка",
        "for_dy": "для dy: «транспонирование»",
        "for_dy2": "(если dy — вход; его читает прямой режим)",
        "ddy_from": "от внешней ленты",
        "dy_from": "от внутренней ленты",
    },
}


class Svg:
    def __init__(self, width: int, height: int, title: str, desc: str, ident: str):
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-labelledby="{ident}-title {ident}-desc" '
            f'font-family="{SANS}" font-size="14" fill="{INK}">',
            f'<title id="{ident}-title">{escape(title)}</title>',
            f'<desc id="{ident}-desc">{escape(desc)}</desc>',
            "<defs>",
        ]
        for name, color in (("fwd", FWD), ("bwd", BWD), ("bwd2", BWD2), ("muted", MUTED)):
            self.parts.append(
                f'<marker id="{ident}-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>'
            )
        self.parts.append("</defs>")
        self.parts.append(f'<rect x="0" y="0" width="{width}" height="{height}" rx="10" fill="#ffffff"/>')
        self.ident = ident
        self.colors = {"fwd": FWD, "bwd": BWD, "bwd2": BWD2, "muted": MUTED}

    def rect(self, x, y, w, h, fill, stroke="none", rx=8, dashed=False):
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self.parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="1.5"{dash}/>'
        )

    def text(self, x, y, s, size=14, color=INK, anchor="start", mono=False, bold=False, italic=False):
        attrs = [f'x="{x}"', f'y="{y}"', f'text-anchor="{anchor}"', f'fill="{color}"']
        if size != 14:
            attrs.append(f'font-size="{size}"')
        if mono:
            attrs.append(f'font-family="{MONO}"')
        if bold:
            attrs.append('font-weight="bold"')
        if italic:
            attrs.append('font-style="italic"')
        self.parts.append(f"<text {' '.join(attrs)}>{escape(s)}</text>")

    def arrow(self, x1, y1, x2, y2, kind, dashed=False, label=None, label_dx=6, label_dy=-6):
        color = self.colors[kind]
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        self.parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{color}" stroke-width="2"{dash} '
            f'marker-end="url(#{self.ident}-{kind})"/>'
        )
        if label:
            self.text((x1 + x2) / 2 + label_dx, (y1 + y2) / 2 + label_dy, label, size=12, color=color)

    def pill(self, cx, cy, label, color):
        w = 16 + 9 * len(label)
        self.rect(cx - w / 2, cy - 15, w, 30, "#ffffff", color, rx=15)
        self.text(cx, cy + 5, label, color=color, anchor="middle", mono=True, bold=True)
        return w

    def lane_title(self, x, y, label, note, color):
        note_part = f'<tspan fill="{MUTED}" font-weight="normal" font-size="12">   {escape(note)}</tspan>' if note else ""
        self.parts.append(
            f'<text x="{x}" y="{y}" fill="{color}" font-weight="bold">{escape(label)}{note_part}</text>'
        )

    def render(self) -> str:
        return "\n".join(self.parts + ["</svg>"]) + "\n"


def passes_svg(lang: str) -> str:
    t = TEXT[lang]
    width, height = 800, 580
    svg = Svg(width, height, t["title"], t["desc"], f"second-order-passes-{lang}")
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
    svg.text(134, top + 98, "return (for x, for dy)", mono=True, size=14)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a file is stale")
    args = parser.parse_args(argv)
    stale = 0
    for path, content in targets().items():
        rel = path.relative_to(ROOT)
        if path.exists() and path.read_text(encoding="utf-8") == content:
            print(f"same    {rel}")
        elif args.check:
            stale += 1
            print(f"STALE   {rel} (run: python tools/second_order_diagram.py)")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            print(f"written {rel}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
