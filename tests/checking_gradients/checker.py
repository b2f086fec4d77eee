"""The canonical gradient check: the `check` section of snippets/checking_gradients/11_gradient_check.py.

Recipe snippets hold byte-identical copies of it (tests/checking_gradients/test_checker_copies.py); the tests
import it from the snippet file itself, never from a copy.
"""

from __future__ import annotations

import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CANONICAL = ROOT / "snippets" / "checking_gradients" / "11_gradient_check.py"
START, END = "# --8<-- [start:check]\n", "# --8<-- [end:check]\n"


def section(text: str) -> tuple[int, str] | None:
    """(line number of the start marker, the text from the start marker to the end marker, both included)."""
    start = text.find(START)
    if start < 0:
        return None
    end = text.find(END, start)
    if end < 0:
        return text.count("\n", 0, start) + 1, text[start:]
    return text.count("\n", 0, start) + 1, text[start : end + len(END)]


def load() -> types.ModuleType:
    """The canonical section, executed as a module of its own (its line numbers are the snippet's)."""
    line, code = section(CANONICAL.read_text(encoding="utf-8"))
    module = types.ModuleType("gradient_check")
    module.__file__ = str(CANONICAL)
    exec(compile("\n" * (line - 1) + code, str(CANONICAL), "exec"), module.__dict__)  # noqa: S102
    return module


def copies() -> list[Path]:
    """Every snippet other than the canonical one that holds a `check` section."""
    return sorted(
        path
        for path in (ROOT / "snippets").rglob("*.py")
        if path != CANONICAL and START in path.read_text(encoding="utf-8")
    )


def sync() -> list[Path]:
    """Overwrite each copy's section with the canonical one; return the files changed."""
    _, canonical = section(CANONICAL.read_text(encoding="utf-8"))
    changed = []
    for path in copies():
        text = path.read_text(encoding="utf-8")
        line, old = section(text)
        if old != canonical:
            start = text.index(START)
            path.write_text(text[:start] + canonical + text[start + len(old) :], encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":  # make sync-checker
    for path in sync():
        print(f"synced {path.relative_to(ROOT)}: now run `make outputs ONLY={path.relative_to(ROOT)}`")
