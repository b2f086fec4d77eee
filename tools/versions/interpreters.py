"""The Python a release runs under, found by running it (tools/python.sh find-version): a version manager's
shim on the PATH may exist and fail."""

from __future__ import annotations

import subprocess

from tools.versions import ROOT


def find_python(minor: str) -> str | None:
    """The real path of a Python `minor` (e.g. "3.12") that runs, or None."""
    found = subprocess.run(
        ["sh", str(ROOT / "tools" / "python.sh"), "find-version", minor], capture_output=True, text=True, check=True
    ).stdout.strip()
    return found or None


def require_python(minor: str, tensorflow: str) -> str:
    python = find_python(minor)
    if python is None:
        raise SystemExit(
            f"TensorFlow {tensorflow} runs under Python {minor}, and no Python {minor} runs here "
            f"(tried python{minor}, pyenv's versions, /usr/local/bin, /usr/bin). Install it "
            f"(e.g. `pyenv install {minor}`, or `uv python install {minor}` and put it on the PATH)."
        )
    return python
