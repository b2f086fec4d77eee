"""The releases checked (versions/releases.yml, oldest first, the pinned one last) and their files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from tools.versions import ROOT, SNIPPETS, VERSIONS

RELEASES_FILE = VERSIONS / "releases.yml"
RESULTS = VERSIONS / "results"
LOCKS = VERSIONS / "locks"
PINNED_FILE = SNIPPETS / "tensorflow_version.txt"  # "TensorFlow 2.21.0, Linux x86_64": the kept outputs' release


@dataclass(frozen=True)
class Release:
    tensorflow: str  # e.g. "2.16.2"
    python: str  # the newest Python this release has wheels for, e.g. "3.12"
    lock: Path  # hash-pinned: tensorflow-cpu==<tensorflow> and everything it resolves to

    @property
    def results(self) -> Path:
        return results_path(self.tensorflow, RESULTS)


def results_path(tensorflow: str, folder: Path = RESULTS) -> Path:
    return folder / f"tensorflow-{tensorflow}.yml"


def lock_path(tensorflow: str) -> Path:
    return LOCKS / f"tensorflow-{tensorflow}.txt"


def load_releases(path: Path = RELEASES_FILE) -> list[Release]:
    return [
        Release(str(item["tensorflow"]), str(item["python"]), ROOT / item["lock"])
        for item in yaml.safe_load(path.read_text(encoding="utf-8"))
    ]


def pinned_tensorflow() -> str:
    """The release the kept outputs were made with (and requirements.lock pins)."""
    return PINNED_FILE.read_text(encoding="utf-8").split(",")[0].split()[-1]


def select(releases: list[Release], wanted: str | None) -> list[Release]:
    """`RELEASES=2.15.1,2.21.0` (or minor versions: `2.15,2.21`): those releases only, in the file's order."""
    if not wanted:
        return releases
    names = [name.strip() for name in wanted.split(",") if name.strip()]
    chosen = [r for r in releases if any(r.tensorflow == n or r.tensorflow.startswith(n + ".") for n in names)]
    unknown = [n for n in names if not any(r.tensorflow == n or r.tensorflow.startswith(n + ".") for r in releases)]
    if unknown:
        known = ", ".join(r.tensorflow for r in releases)
        raise SystemExit(f"not in {RELEASES_FILE.relative_to(ROOT)}: {', '.join(unknown)} (it lists {known})")
    return chosen
