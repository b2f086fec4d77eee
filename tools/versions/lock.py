"""`make versions-lock`: each release's hash-pinned lock, resolved by uv for Linux x86-64 and the release's Python,
as `pip install tensorflow-cpu==X` resolves it today (Keras and every other dependency included).

    python -m tools.versions.lock                      # every release of versions/releases.yml
    python -m tools.versions.lock --releases 2.15,2.21 # some
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from tools.versions import UV
from tools.versions.releases import load_releases, select

PLATFORM = "x86_64-unknown-linux-gnu"  # the CPU wheels' platform (manylinux_2_28)
COMMAND = "make versions-lock"


def compile_lock(requirement: str, python: str, output: Path, command: str = COMMAND) -> None:
    """Resolve `requirement` (e.g. "tensorflow-cpu==2.16.2", or "tensorflow-cpu" for the newest) into `output`.
    Releases only: uv would otherwise take a release candidate when no release has wheels for `python`
    (seen: "tensorflow-cpu" for Python 3.14 resolved to 2.22.0rc0)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            str(UV), "pip", "compile", "-", "--quiet", "--generate-hashes",
            "--python-version", python, "--python-platform", PLATFORM, "--prerelease", "disallow",
            "--custom-compile-command", command, "-o", str(output),
        ],
        input=requirement + "\n", text=True, check=True,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--releases", help="comma-separated releases (default: all)")
    args = parser.parse_args(argv)
    for release in select(load_releases(), args.releases):
        compile_lock(f"tensorflow-cpu=={release.tensorflow}", release.python, release.lock)
        print(f"written {release.lock.name} (Python {release.python})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
