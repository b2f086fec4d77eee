"""One source of truth for the gradient check: every snippet that prints a proof holds a byte-identical copy of
the `check` section of snippets/checking_gradients/11_gradient_check.py, so each runs alone with only
TensorFlow, and none drifts from the one the checking chapter shows and tests/checking_gradients/ tests."""

from __future__ import annotations

import pytest

from tests.checking_gradients.checker import CANONICAL, END, ROOT, copies, section

FIX = "run `make sync-checker` (copies the canonical section into every snippet), then `make outputs ONLY={path}`"


def test_the_canonical_section_has_both_markers():
    found = section(CANONICAL.read_text(encoding="utf-8"))
    assert found is not None and found[1].endswith(END), (
        f"{CANONICAL.relative_to(ROOT)}: the gradient check must sit between `# --8<-- [start:check]` and "
        "`# --8<-- [end:check]`"
    )


@pytest.mark.parametrize("path", copies(), ids=lambda path: str(path.relative_to(ROOT)))
def test_each_copy_is_byte_identical_to_the_canonical_section(path):
    _, canonical = section(CANONICAL.read_text(encoding="utf-8"))
    line, copy = section(path.read_text(encoding="utf-8"))
    if copy == canonical:
        return
    ours, theirs = copy.splitlines(keepends=True), canonical.splitlines(keepends=True)
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    relative = path.relative_to(ROOT)
    pytest.fail(
        f"{relative}:{line + first}: the `check` section differs from the one in "
        f"{CANONICAL.relative_to(ROOT)}:{section(CANONICAL.read_text(encoding='utf-8'))[0] + first}: "
        f"{FIX.format(path=relative)}",
        pytrace=False,
    )
