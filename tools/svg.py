"""What the diagram generators share: the site's colours and fonts, a small SVG builder, and write-or-check.

Each generator (tools/*_diagram*.py) subclasses `Svg` for its own shapes (boxes, pills, legends) and ends its
`main` with `write_or_check`. Standard library only.
"""

from __future__ import annotations

import argparse
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SANS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace"
INK = "#1f2328"
MUTED = "#57606a"
BLUE = "#0b6bcb"
ORANGE = "#c2410c"  # the site's accent
PURPLE = "#7e22ce"
RED = "#b42318"
LANE_FILL = ("#eef5fc", "#fdf1ea", "#f5edfc")  # light backgrounds of a blue, an orange and a purple lane


class Svg:
    """An SVG picture built element by element; `render()` returns the file's text.

    The root element carries a <title> and a <desc> (the text alternative screen readers read) and the font.
    With `root_text_style`, it also sets font-size 14 and the ink colour, which <text> elements inherit.
    """

    def __init__(
        self, width, height, title: str, desc: str, ident: str, font_family: str = SANS, root_text_style: bool = True
    ):
        style = f' font-size="14" fill="{INK}"' if root_text_style else ""
        self.width, self.height, self.ident = width, height, ident
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-labelledby="{ident}-title {ident}-desc" '
            f'font-family="{font_family}"{style}>',
            f'<title id="{ident}-title">{escape(title)}</title>',
            f'<desc id="{ident}-desc">{escape(desc)}</desc>',
        ]

    def markers(self, colors: dict[str, str], prefix: str | None = None):
        """One arrow head per colour, with the id "<prefix>-<name>" (prefix: the picture's ident)."""
        prefix = prefix or self.ident
        self.parts.append("<defs>")
        for name, color in colors.items():
            self.parts.append(
                f'<marker id="{prefix}-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>'
            )
        self.parts.append("</defs>")

    def white_background(self):
        self.parts.append(f'<rect x="0" y="0" width="{self.width}" height="{self.height}" rx="10" fill="#ffffff"/>')

    def rect(self, x, y, w, h, fill, stroke="none", rx=8, width=1.5, dashed=False):
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self.parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width}"{dash}/>'
        )

    def text(self, x, y, s, size=14, color=INK, anchor="start", mono=False, bold=False):
        attrs = [f'x="{x}"', f'y="{y}"', f'text-anchor="{anchor}"', f'fill="{color}"']
        if size != 14:
            attrs.append(f'font-size="{size}"')
        if mono:
            attrs.append(f'font-family="{MONO}"')
        if bold:
            attrs.append('font-weight="bold"')
        self.parts.append(f"<text {' '.join(attrs)}>{escape(s)}</text>")

    def line(self, x1, y1, x2, y2, color, width, marker: str, dash: str | None = None):
        """A line ending in the arrow head with the id `marker` (see `markers`); `dash` is a stroke-dasharray."""
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{color}" stroke-width="{width}"{dash_attr} '
            f'marker-end="url(#{marker})"/>'
        )

    def render(self) -> str:
        return "\n".join(self.parts + ["</svg>"]) + "\n"


def check_requested(doc: str, argv: list[str] | None) -> bool:
    """Parse a generator's command line (its docstring is the --help text): True if it has --check."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a file is stale")
    return parser.parse_args(argv).check


def write_or_check(targets: dict[Path, str], check: bool, command: str) -> int:
    """Write each target file whose text differs, or with `check` only report it as STALE.

    Prints one line per file (same, STALE or written); returns 1 if `check` found a stale file, else 0.
    `command` is what a reader should run to redraw a stale file.
    """
    stale = 0
    for path, content in targets.items():
        rel = path.relative_to(ROOT)
        if path.exists() and path.read_text(encoding="utf-8") == content:
            print(f"same    {rel}")
        elif check:
            stale += 1
            print(f"STALE   {rel} (run: {command})")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            print(f"written {rel}")
    return 1 if stale else 0
