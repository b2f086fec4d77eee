"""What a run changed, as a reader would want to see it: per snippet, the result before and now, and a unified
diff of the output (the committed one, or the kept .out when it was identical) against this run's."""

from __future__ import annotations

import difflib


def shown(entry: dict | None, kept: str) -> str:
    """What a snippet printed according to `entry`: its recorded output, or the kept .out when identical."""
    return (entry or {}).get("output", kept)


def change(path: str, before: dict | None, now: dict, kept: str, before_label: str, now_label: str) -> str | None:
    """None when `now` has the result and output `before` had (a missing `before` means: identical to the kept
    output, what a new release should be); else a readable report with a unified diff."""
    before_result = (before or {}).get("result", "identical")
    old, new = shown(before, kept), shown(now, kept)
    if before_result == now["result"] and old == new:
        return None
    diff = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"{path} ({before_label}: {before_result})",
            tofile=f"{path} ({now_label}: {now['result']})",
        )
    )
    if diff and not diff.endswith("\n"):
        diff += "\n"
    return f"{path}: {before_result} -> {now['result']}\n{diff}"
