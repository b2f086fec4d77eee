"""The Python a release runs under, found by running it (tools/python.sh find-version): a version manager's
shim on the PATH may exist and fail. None here: uv finds one, or downloads a standalone build of it."""

from __future__ import annotations

import subprocess

from tools.versions import ROOT


def find_python(minor: str) -> str | None:
    """The real path of a Python `minor` (e.g. "3.12") that runs, or None."""
    found = subprocess.run(
        ["sh", str(ROOT / "tools" / "python.sh"), "find-version", minor], capture_output=True, text=True, check=True
    ).stdout.strip()
    return found or None


def interpreter_for(minor: str, tensorflow: str) -> str:
    """What `uv venv --python` gets for this release: an installed Python `minor`, or else the version itself
    (uv then uses one it manages, downloading it if it may; if it cannot, making the environment fails and says so)."""
    python = find_python(minor)
    if python is None:
        print(
            f"  (no Python {minor} runs here, for TensorFlow {tensorflow}: tried python{minor}, pyenv's versions, "
            f"/usr/local/bin, /usr/bin; asking uv for one, which may download it)",
            flush=True,
        )
        return minor
    return python
