"""A throwaway environment per release: made with uv from that release's lock (`--require-hashes`; the wheels
come from uv's download cache after the first time), described, used, then deleted. An environment holds about
2 GB, so downloads are cached and environments are not."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tools.versions import ENVIRONMENTS, UV

# Run inside the environment: what it really holds (package metadata, so TensorFlow is not imported for this).
DESCRIBE = """
import json, platform
from importlib import metadata

def version(*names):
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return "none"

print(json.dumps({
    "tensorflow": version("tensorflow-cpu", "tensorflow"),
    "keras": version("keras"),
    "python": platform.python_version(),
    "platform": f"{platform.system()} {platform.machine()}",
}))
"""


@dataclass(frozen=True)
class Environment:
    python: Path  # the environment's interpreter
    root: Path
    tensorflow: str
    keras: str
    python_version: str
    platform: str


def describe(python: Path | str) -> dict:
    out = subprocess.run([str(python), "-c", DESCRIBE], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def _uv(*args: str) -> None:
    subprocess.run([str(UV), *args], check=True)


@contextlib.contextmanager
def environment(name: str, interpreter: str, lock: Path, keep: bool = False) -> Iterator[Environment]:
    """An environment `.cache/versions/<name>` holding exactly `lock`, made with `interpreter`; deleted on exit
    (also when the run fails), unless `keep`."""
    root = ENVIRONMENTS / name
    shutil.rmtree(root, ignore_errors=True)
    ENVIRONMENTS.mkdir(parents=True, exist_ok=True)
    try:
        _uv("venv", "--quiet", "--python", interpreter, str(root))
        python = root / "bin" / "python"
        _uv("pip", "sync", "--quiet", "--python", str(python), "--require-hashes", str(lock))
        facts = describe(python)
        yield Environment(python, root, facts["tensorflow"], facts["keras"], facts["python"], facts["platform"])
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
