"""The steps of the where-dy stepper, from the numbers snippet 17 really printed.

Reads the kept output of snippets/where_dy_comes_from/17_step_through_trace.py (every case at a few x: one
line per step of the forward and the backward pass) and writes the stepper's data next to it, as JSON that both
language pages embed (`<script type="application/json" data-dy-stepper>` around a `--8<--` include):

    snippets/where_dy_comes_from/17_step_through_trace.out -> snippets/where_dy_comes_from/17_step_through_trace.steps.json

One step per printed line, in the printed order; every number is the text of that line, never recomputed. The
page's script (overrides/assets/javascripts/dy-stepper.js) only switches between these steps; the words it
shows are in the pages. Standard library only; no TensorFlow needed.

    python -m tools.where_dy_stepper          # (re)write the JSON (part of `make outputs`, via tools/diagrams.py)
    python -m tools.where_dy_stepper --check  # exit 1 if the committed JSON differs from what it would write

tests/where_dy_comes_from/test_stepper_data.py runs the same functions in memory.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

if not __package__:  # run as `python tools/where_dy_stepper.py`: let it import the tools package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.svg import ROOT, check_requested, write_or_check

TRACE_OUT = ROOT / "snippets" / "where_dy_comes_from" / "17_step_through_trace.out"
STEPS_JSON = TRACE_OUT.with_name("17_step_through_trace.steps.json")
INPUTS = (TRACE_OUT,)  # kept outputs it reads (tools/diagrams.py --only)
COMMAND = "make outputs ONLY=snippets/where_dy_comes_from/17_step_through_trace.py"

# The snippet's case names -> the id of the chapter's section about that case (the page's labels use the id).
CASE_IDS = {
    "the output as the target": "output-is-the-target",
    "L = 3*y": "l-equals-3y",
    "L = y**2": "l-equals-y-squared",
    "output_gradients = 5": "output-gradients",
    "two consumers, L = 3*y + y**2": "two-consumers",
    "a chain of two, L = square(y)": "chain-of-two",
}
# An operation as the snippet names it -> (its key in the page's sentences, how the boxes write it).
OPS = {
    "log1pexp": ("log1pexp", "log1pexp"),
    "square": ("square", "square"),
    "3*y": ("times3", "3·y"),
    "y**2": ("squared", "y²"),
    "a + b": ("add", "a + b"),
}

CUSTOM = ("log1pexp", "square")  # the keys of the operations with your own grad (their lines say " grad")

NUM = r"-?\d+\.\d+"
LINES = {  # one step each, in this order within a run: watch, forward..., start, backward..., result
    "case": re.compile(rf"^(?P<case>.+), x = (?P<x>{NUM}):$"),
    "watch": re.compile(rf"^  watch x = (?P<x>{NUM})$"),
    "forward": re.compile(
        rf"^  forward (?P<op>.+?): (?P<args>.+) -> (?P<out>\w+) = (?P<val>{NUM})"
        rf"(?:, stores (?P<stored>\w+) = (?P<stored_val>{NUM}))?$"
    ),
    "start": re.compile(rf"^  start at (?P<target>\w+) with dy = (?P<dy>{NUM})$"),
    "backward": re.compile(
        rf"^  backward (?P<op>.+?)(?P<grad> grad)?: dy = (?:(?P<parts>{NUM}(?: \+ {NUM})+) = )?(?P<dy>{NUM}) -> "
        rf"(?P<back>{NUM} to \w+(?:, {NUM} to \w+)*)$"
    ),
    "result": re.compile(rf"^  result d(?P<target>\w+)/dx = (?P<dx>{NUM})$"),
}


class OutputChanged(ValueError):
    """The snippet's output no longer has the lines the stepper is made from."""


def _fail(number: int, line: str, why: str):
    raise OutputChanged(
        f"{TRACE_OUT.relative_to(ROOT)}:{number}: {why}: {line!r}; update the snippet or LINES in "
        f"tools/where_dy_stepper.py, then run {COMMAND}"
    )


def parse(text: str) -> dict[tuple[str, str], list[tuple[str, dict[str, str]]]]:
    """{(case name, x): [(line kind, its fields), ...]} in the printed order."""
    runs: dict = {}
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        kind, match = next(((k, m) for k, p in LINES.items() if (m := p.match(line))), (None, None))
        if match is None:
            _fail(number, line, "no pattern matches this line")
        fields = {k: v for k, v in match.groupdict().items() if v is not None}
        if kind == "case":
            if fields["case"] not in CASE_IDS:
                _fail(number, line, "a case the stepper has no id for (CASE_IDS)")
            current = runs.setdefault((fields["case"], fields["x"]), [])
        elif current is None:
            _fail(number, line, "a step before the first case line")
        else:
            current.append((kind, fields | {"line": number}))
    return runs


def _back(text: str) -> list[tuple[str, str]]:
    """'1.0000 to a, 1.0000 to b' -> [('a', '1.0000'), ('b', '1.0000')]"""
    return [(name, value) for value, name in (part.split(" to ") for part in text.split(", "))]


def run_steps(lines: list[tuple[str, dict]]) -> dict:
    """One run (a case at one x): its operations, its steps and what each box shows from which step on.

    Box 0 is x; box k is the k-th operation of the forward pass. A box field is shown from step `s` on.
    """
    kinds = [kind for kind, _ in lines]
    n = kinds.count("forward")
    if kinds != ["watch"] + ["forward"] * n + ["start"] + ["backward"] * n + ["result"]:
        raise OutputChanged(f"{TRACE_OUT.relative_to(ROOT)}:{lines[0][1]['line']}: steps out of order: {kinds}")
    forward = [f for k, f in lines if k == "forward"]
    ops = []
    for f in forward:
        if f["op"] not in OPS:
            raise OutputChanged(f"{TRACE_OUT.relative_to(ROOT)}:{f['line']}: an operation not in OPS: {f['op']}")
        inputs = [a.split(" = ")[0] for a in f["args"].split(", ")]
        ops.append({"key": OPS[f["op"]][0], "name": OPS[f["op"]][1], "sig": f"{', '.join(inputs)} → {f['out']}"})
    steps, boxes = [], [[] for _ in range(n + 1)]
    done: list[int] = []  # the boxes whose backward step has come, in order
    for index, (kind, f) in enumerate(lines):
        if kind == "watch":
            steps.append({"at": 0, "pass": "forward", "say": "watch", "v": {"x": f["x"]}})
            boxes[0].append({"k": "val", "t": f"x = {f['x']}", "s": index})
        elif kind == "forward":
            box = index  # forward step k (1-based) is line k
            v = {"args": f["args"], "out": f["out"], "val": f["val"]}
            steps.append({"at": box, "pass": "forward", "say": f"fwd-{ops[box - 1]['key']}", "v": v})
            boxes[box].append({"k": "val", "t": f"{f['out']} = {f['val']}", "s": index})
            if "stored" in f:
                v["stored"] = f"{f['stored']} = {f['stored_val']}"
                boxes[box].append({"k": "stores", "t": v["stored"], "s": index})
        elif kind == "start":
            say = "start" if f["dy"] == "1.0000" else "start-given"  # 1, or the output_gradients you chose
            steps.append({"at": n, "pass": "backward", "say": say, "v": {"t": f["target"], "dy": f["dy"]}})
        elif kind == "backward":  # in the order TensorFlow called the gradients (the snippet records it)
            box = next((k for k, g in enumerate(forward, start=1) if g["op"] == f["op"]), None)
            if box is None or box in done or ("grad" in f) != (ops[box - 1]["key"] in CUSTOM):
                raise OutputChanged(
                    f"{TRACE_OUT.relative_to(ROOT)}:{f['line']}: backward step {f['op']!r} is not one of this "
                    f"run's forward operations, or comes twice, or has the wrong ' grad'"
                )
            done.append(box)
            op = ops[box - 1]
            back = _back(f["back"])
            # the first backward step gets the starting dy; the sentence for log1pexp says so
            first = len(done) == 1 and op["key"] == "log1pexp"
            say = f"bwd-{op['key']}" + ("-sum" if "parts" in f else "-first" if first else "")
            v = {"dy": f["dy"], "back": back[0][1], "to": back[0][0]}
            if "parts" in f:
                v["parts"] = f["parts"]
            if len(back) > 1:
                v |= {f"back_{name}": value for name, value in back}
            steps.append({"at": box, "pass": "backward", "say": say, "v": v})
            dy_text = f"dy = {f['parts']} = {f['dy']}" if "parts" in f else f"dy = {f['dy']}"
            boxes[box].append({"k": "dy", "t": dy_text, "s": index - 1 if box == n else index})
            for name, value in back:
                boxes[box].append({"k": "back", "t": f"{name} ← {value}", "s": index})
        else:  # result
            steps.append({"at": 0, "pass": "backward", "say": "result", "v": {"t": f["target"], "dx": f["dx"]}})
            boxes[0].append({"k": "back", "t": f"d{f['target']}/dx = {f['dx']}", "s": index})
    return {"ops": ops, "steps": steps, "boxes": boxes}


def stepper_data(text: str) -> dict:
    """Everything the stepper shows but its words: per case, per x, the steps."""
    runs = parse(text)
    xs = list(dict.fromkeys(x for _, x in runs))
    cases = {}
    for name, case_id in CASE_IDS.items():
        missing = [x for x in xs if (name, x) not in runs]
        if missing:
            raise OutputChanged(f"{TRACE_OUT.relative_to(ROOT)}: case {name!r} has no run at x = {missing}")
        cases[case_id] = {x: run_steps(runs[(name, x)]) for x in xs}
    return {"source": TRACE_OUT.relative_to(ROOT).as_posix(), "xs": xs, "cases": cases}


def render(data: dict) -> str:
    """The JSON as the page embeds it: one line (so Markdown leaves it alone), and no '</' (inside <script>)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/") + "\n"


def expected_files() -> dict[Path, str]:
    return {STEPS_JSON: render(stepper_data(TRACE_OUT.read_text(encoding="utf-8")))}


def main(argv=None) -> int:
    return write_or_check(expected_files(), check_requested(__doc__, argv), COMMAND)


if __name__ == "__main__":
    sys.exit(main())
