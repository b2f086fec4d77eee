"""Redraw every generated diagram: run the four diagram generators one after another.

python -m tools.diagrams          # (re)write the SVG files that changed (part of `make outputs`)
python -m tools.diagrams --check  # exit 1 if any committed SVG differs from what its generator would write
"""

from __future__ import annotations

import sys

from tools import nth_order_diagram, registergradient_diagram, second_order_diagram, where_dy_diagrams
from tools.svg import check_requested

GENERATORS = (where_dy_diagrams, registergradient_diagram, second_order_diagram, nth_order_diagram)


def main(argv: list[str] | None = None) -> int:
    args = ["--check"] if check_requested(__doc__, argv) else []
    results = [generator.main(args) for generator in GENERATORS]
    return max(results)


if __name__ == "__main__":
    sys.exit(main())
