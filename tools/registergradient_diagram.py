"""Draw the RegisterGradient-vs-custom_gradient picture: where each mechanism hooks into autodiff.

Writes one SVG per language (labels in the page's language, same drawing):

    docs/assets/diagrams/registergradient-hooks.en.svg
    docs/assets/diagrams/registergradient-hooks.ru.svg

Two lanes, one per backward-pass engine: the GradientTape (eager mode, or a tape inside tf.function), which
looks up registry[op.type], and the graph engine (tf.gradients, or the backward pass that tf.function builds
for a tape outside it), which looks up registry[_gradient_op_type or op.type]. In each lane, one row for
RegisterGradient + gradient_override_map and one for tf.custom_gradient. The verdicts (applied / ignored) are
the table printed by snippets/registergradient_vs_custom_gradient/04_where_override_applies.py, checked by
tests/registergradient_vs_custom_gradient/. Standard library only.

    python tools/registergradient_diagram.py          # (re)write the SVG files
    python tools/registergradient_diagram.py --check  # exit 1 if a committed SVG differs from what it would write

tests/registergradient_vs_custom_gradient/test_diagram.py runs the same function in memory.
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

if not __package__:  # run as `python tools/registergradient_diagram.py`: let it import the tools package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.svg import BLUE, INK, LANE_FILL, MONO, MUTED, ORANGE, RED, ROOT, SANS, Svg, check_requested, write_or_check

OUT_DIR = ROOT / "docs" / "assets" / "diagrams"
LANGS = ("en", "ru")

GREEN = "#1a7f37"
LANE_STROKE = (BLUE, ORANGE)
WIDTH, HEIGHT = 760, 600

# Box text: a list of lines; a line is a list of (text, mono?) pieces. Code stays in English in both languages.
C = True  # code piece
P = False  # prose piece
REGISTER = [[("@tf.RegisterGradient", C)], [("+ gradient_override_map", C)]]
CUSTOM = [[("@tf.custom_gradient", C)]]

TEXT = {
    "en": {
        "title": "Where each mechanism hooks into autodiff",
        "desc": (
            "Two lanes, one per backward-pass engine, and two rows in each lane. Lane 1: GradientTape, in eager "
            "mode or inside tf.function; it looks up registry[op.type]. RegisterGradient with gradient_override_map "
            "only sets the op attribute _gradient_op_type, which the tape never reads: the override is ignored and "
            "the built-in gradient is used. tf.custom_gradient records your grad on the tape together with the "
            "op: applied. Lane 2: the graph engine, that is tf.gradients or the backward pass of a tf.function "
            "(what a tape outside the tf.function uses); it looks up registry[_gradient_op_type], or registry[op.type] "
            "if there is no such attribute. With gradient_override_map the Round op carries _gradient_op_type = "
            "StraightThroughRound, and the registry entry of that name is your function: applied. "
            "tf.custom_gradient adds an IdentityN op with _gradient_op_type = CustomGradient-<uid>, registered to "
            "your grad: applied. At the bottom: the gradient registry is one process-wide table from names to "
            "gradient functions; @tf.RegisterGradient adds a name only once (a second time raises KeyError); "
            "tf.custom_gradient in graph mode adds a fresh CustomGradient-<uid> name per call."
        ),
        "columns": ["what you write", "what the forward pass leaves", "what the backward pass does"],
        "lanes": [
            ["1. GradientTape: eager mode, or a tape inside tf.function", None, "looks up registry[op.type]"],
            [
                "2. Graph: tf.gradients, or the backward pass of a tf.function",
                "(the one a tape outside the tf.function uses)",
                "looks up registry[_gradient_op_type], else registry[op.type]",
            ],
        ],
        "recorded": [
            [
                [[("op Round with the attribute", P)], [("_gradient_op_type", C)]],
                [[("a tape record: the op", P)], [("+ your grad", P)], [("(record_operation)", C)]],
            ],
            [
                [[("op Round with", P)], [("_gradient_op_type=", C)], [("'StraightThroughRound'", C)]],
                [[("op IdentityN with", P)], [("_gradient_op_type=", C)], [("'CustomGradient-<uid>'", C)]],
            ],
        ],
        "verdicts": [
            [
                ("IGNORED", ["attribute never read:", "built-in gradient used"]),
                ("APPLIED", ["the tape calls your grad"]),
            ],
            [
                ("APPLIED", ["registry entry of that", "name: your function"]),
                ("APPLIED", ["registry entry of that", "name: your grad"]),
            ],
        ],
        "registry": [
            "Gradient registry: one process-wide table, name → gradient function.",
            "@tf.RegisterGradient(name) adds a name, only once (a second time: KeyError).",
            "tf.custom_gradient in graph mode adds a fresh CustomGradient-<uid> per call.",
        ],
    },
    "ru": {
        "title": "Куда каждый механизм встраивается в автодифференцирование",
        "desc": (
            "Две полосы, по одной на каждый механизм обратного прохода, и в каждой по две строки. Полоса 1: "
            "GradientTape, в eager-режиме или внутри tf.function; лента ищет registry[op.type]. RegisterGradient "
            "с gradient_override_map лишь записывает в операцию атрибут _gradient_op_type, который лента не "
            "читает: подмена игнорируется, используется встроенный градиент. tf.custom_gradient записывает на "
            "ленту ваш grad вместе с операцией: применяется. Полоса 2: граф, то есть tf.gradients или обратный "
            "проход tf.function (его использует лента снаружи tf.function); ищет registry[_gradient_op_type], "
            "а если атрибута нет — registry[op.type]. С gradient_override_map у операции Round есть "
            "_gradient_op_type = StraightThroughRound, и под этим именем в реестре лежит ваша функция: "
            "применяется. tf.custom_gradient добавляет операцию IdentityN с _gradient_op_type = "
            "CustomGradient-<uid>, под этим именем зарегистрирован ваш grad: применяется. Внизу: реестр "
            "градиентов — одна таблица на весь процесс, имя → функция градиента; @tf.RegisterGradient добавляет "
            "имя только один раз (повторно — KeyError); tf.custom_gradient в графе добавляет новое имя "
            "CustomGradient-<uid> на каждый вызов."
        ),
        "columns": ["что вы пишете", "что остаётся после прямого прохода", "что делает обратный проход"],
        "lanes": [
            ["1. GradientTape: eager-режим или лента внутри tf.function", None, "ищет registry[op.type]"],
            [
                "2. Граф: tf.gradients или обратный проход tf.function",
                "(его использует лента снаружи tf.function)",
                "ищет registry[_gradient_op_type], иначе registry[op.type]",
            ],
        ],
        "recorded": [
            [
                [[("операция Round с атрибутом", P)], [("_gradient_op_type", C)]],
                [[("запись на ленте: операция", P)], [("+ ваш grad", P)], [("(record_operation)", C)]],
            ],
            [
                [[("операция Round с", P)], [("_gradient_op_type=", C)], [("'StraightThroughRound'", C)]],
                [[("операция IdentityN с", P)], [("_gradient_op_type=", C)], [("'CustomGradient-<uid>'", C)]],
            ],
        ],
        "verdicts": [
            [
                ("ИГНОРИРУЕТСЯ", ["атрибут не читается:", "встроенный градиент"]),
                ("ПРИМЕНЯЕТСЯ", ["лента вызывает ваш grad"]),
            ],
            [
                ("ПРИМЕНЯЕТСЯ", ["под этим именем в реестре", "лежит ваша функция"]),
                ("ПРИМЕНЯЕТСЯ", ["под этим именем в реестре", "лежит ваш grad"]),
            ],
        ],
        "registry": [
            "Реестр градиентов: одна таблица на весь процесс, имя → функция градиента.",
            "@tf.RegisterGradient(name) добавляет имя только один раз (повторно — KeyError).",
            "tf.custom_gradient в графе добавляет новое имя CustomGradient-<uid> на каждый вызов.",
        ],
    },
}


class HooksSvg(Svg):
    """The picture's own shapes: its text style (every size and colour spelled out), lines mixing prose and
    code, and grey arrows."""

    def __init__(self, title: str, desc: str, ident: str):
        super().__init__(WIDTH, HEIGHT, title, desc, ident, font_family=escape(SANS), root_text_style=False)
        self.markers({"arrow": MUTED}, prefix="rg")
        self.white_background()

    def text(self, x, y, s, size=14, color=INK, anchor="start", mono=False, bold=False):
        family = f' font-family="{escape(MONO)}"' if mono else ""
        weight = ' font-weight="700"' if bold else ""
        self.parts.append(
            f'<text x="{x}" y="{y}" font-size="{size}" fill="{color}" text-anchor="{anchor}"{family}{weight}>'
            f"{escape(s)}</text>"
        )

    def spans(self, x, y, pieces, size=13):
        """One line made of plain and code pieces, starting at x."""
        inner = "".join(
            f'<tspan font-family="{escape(MONO)}">{escape(t)}</tspan>' if mono else f"<tspan>{escape(t)}</tspan>"
            for t, mono in pieces
        )
        self.parts.append(f'<text x="{x}" y="{y}" font-size="{size}" fill="{INK}">{inner}</text>')

    def arrow(self, x1, y1, x2, y2):
        self.line(x1, y1, x2, y2, MUTED, 1.6, "rg-arrow")


COLS = [(32, 200), (256, 222), (502, 226)]  # (x, width) of the three columns
ROW_H = 68
LINE = 18


def box_lines(svg, x, y, lines, size=13):
    """Lines of pieces, vertically centred in a row box at (x, y)."""
    first = y + ROW_H / 2 - (len(lines) - 1) * LINE / 2 + 5
    for i, line in enumerate(lines):
        svg.spans(x + 10, first + i * LINE, line, size=size)


def hooks_svg(lang: str) -> str:
    t = TEXT[lang]
    svg = HooksSvg(t["title"], t["desc"], f"registergradient-hooks-{lang}")
    svg.text(WIDTH / 2, 30, t["title"], size=18, bold=True, anchor="middle")
    for (x, w), label in zip(COLS, t["columns"]):
        svg.text(x + w / 2, 58, label, size=13, color=MUTED, anchor="middle")
    top = 70
    for lane in range(2):
        bold, note, lookup = t["lanes"][lane]
        header = [(bold, {"size": 15, "bold": True, "color": LANE_STROKE[lane]})]
        if note:
            header.append((note, {"size": 13.5}))
        header.append((lookup, {"size": 13.5, "mono": True}))
        height = 24 + LINE * len(header) + 2 * ROW_H + 10 + 8
        svg.rect(16, top, WIDTH - 32, height, LANE_FILL[lane], LANE_STROKE[lane], rx=10, width=1.2)
        for i, (line, style) in enumerate(header):
            svg.text(32, top + 22 + LINE * i, line, **style)
        for row in range(2):
            y = top + 10 + LINE * len(header) + row * (ROW_H + 10)
            what = REGISTER if row == 0 else CUSTOM
            recorded = t["recorded"][lane][row]
            verdict, why = t["verdicts"][lane][row]
            (x1, w1), (x2, w2), (x3, w3) = COLS
            svg.rect(x1, y, w1, ROW_H, "#ffffff", MUTED, rx=6, width=1)
            box_lines(svg, x1, y, what)
            svg.rect(x2, y, w2, ROW_H, "#ffffff", MUTED, rx=6, width=1)
            box_lines(svg, x2, y, recorded)
            color = RED if lane == 0 and row == 0 else GREEN
            svg.rect(x3, y, w3, ROW_H, "#ffffff", color, rx=6, width=2)
            first = y + ROW_H / 2 - len(why) * LINE / 2 + 5
            svg.text(x3 + 10, first, verdict, size=14.5, bold=True, color=color)
            for i, line in enumerate(why):
                svg.text(x3 + 10, first + LINE * (i + 1), line, size=13.5)
            svg.arrow(x1 + w1 + 2, y + ROW_H / 2, x2 - 3, y + ROW_H / 2)
            svg.arrow(x2 + w2 + 2, y + ROW_H / 2, x3 - 3, y + ROW_H / 2)
        top += height + 14
    for i, line in enumerate(t["registry"]):
        svg.text(32, top + 12 + 19 * i, line, size=13, color=MUTED)
    return svg.render()


def targets() -> dict[Path, str]:
    return {OUT_DIR / f"registergradient-hooks.{lang}.svg": hooks_svg(lang) for lang in LANGS}


INPUTS = ()  # draws from its own data, no kept output (tools/diagrams.py --only)


def main(argv: list[str] | None = None) -> int:
    return write_or_check(targets(), check_requested(__doc__, argv), "python tools/registergradient_diagram.py")


if __name__ == "__main__":
    sys.exit(main())
