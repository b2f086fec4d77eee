"""Redraw the generated diagrams: run the diagram generators one after another.

python -m tools.diagrams                      # (re)write every SVG file that changed (part of `make outputs`)
python -m tools.diagrams --only snippets/x    # only the generators that draw from kept outputs under these paths
python -m tools.diagrams --check              # exit 1 if any committed SVG differs from what its generator would write

Each generator lists the kept outputs it reads in ``INPUTS``; `make outputs ONLY=<snippet or folder>` passes
``--only``, so a snippet no diagram reads redraws nothing.
"""

from __future__ import annotations

import argparse
import sys

from tools import (
    nth_order_diagram,
    registergradient_diagram,
    second_order_diagram,
    where_dy_diagrams,
    where_dy_stepper,
)
from tools.svg import ROOT

# where_dy_stepper writes no picture but the where-dy stepper's steps (JSON), drawn from a kept output the same way.
GENERATORS = (where_dy_diagrams, where_dy_stepper, registergradient_diagram, second_order_diagram, nth_order_diagram)


def reads_from(generator, paths: list[str]) -> bool:
    """True if the generator draws from a kept output of one of these snippets, folders or outputs."""
    chosen = [(ROOT / p).resolve() for p in paths]
    for used in generator.INPUTS:
        used = used.resolve()
        for path in chosen:
            if used == path or used.with_suffix(".py") == path or path in used.parents:
                return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a file is stale")
    parser.add_argument("--only", nargs="*", metavar="PATH", help="snippets, outputs or folders that changed")
    args = parser.parse_args(argv)
    generators = [g for g in GENERATORS if args.only is None or reads_from(g, args.only)]
    if not generators:
        print("no diagram draws from " + " ".join(args.only))
        return 0
    return max(g.main(["--check"] if args.check else []) for g in generators)


if __name__ == "__main__":
    sys.exit(main())
