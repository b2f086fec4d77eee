"""Every snippet runs alone, exits 0, and prints exactly the output its page shows."""

import difflib

import pytest

from tests.harness import (
    VERSION_FILE,
    all_snippets,
    output_path,
    regenerate_command,
    relative,
    run_snippet,
    version_line,
)

SNIPPETS = all_snippets()


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[relative(p) for p in SNIPPETS])
def test_snippet_prints_its_kept_output(snippet):
    result = run_snippet(snippet)
    rel = relative(snippet)
    assert result.returncode == 0, (
        f"{rel} exited with code {result.returncode}; a snippet must exit 0 "
        f"(catch and print an error it demonstrates).\nRun it alone: python {rel}\n"
        f"--- its stderr (last lines) ---\n{result.stderr[-3000:]}"
    )
    kept = output_path(snippet)
    assert kept.exists(), f"{relative(kept)} is missing: run `{regenerate_command(snippet)}`"
    expected = kept.read_text()
    if result.stdout != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                result.stdout.splitlines(keepends=True),
                fromfile=f"{relative(kept)} (kept, shown on the page)",
                tofile=f"python {rel} (real output now)",
            )
        )
        pytest.fail(
            f"{relative(kept)} is stale or was edited by hand: it no longer matches what {rel} prints.\n"
            f"{diff}\nIf the new output is right, regenerate it: {regenerate_command(snippet)}",
            pytrace=False,
        )


def test_every_kept_output_has_its_snippet():
    orphans = [relative(p) for p in sorted(VERSION_FILE.parent.rglob("*.out")) if not p.with_suffix(".py").exists()]
    assert not orphans, f"kept outputs without a snippet (delete them): {orphans}"


def test_outputs_were_made_with_this_tensorflow():
    kept = VERSION_FILE.read_text().strip() if VERSION_FILE.exists() else "(missing)"
    now = version_line()
    assert kept == now, (
        f"{relative(VERSION_FILE)} says the outputs were made with '{kept}', but this run uses '{now}'. "
        "Regenerate every output with: make outputs"
    )
