"""`make versions`: every snippet, copied alone into an empty folder, run under each TensorFlow release of
versions/releases.yml, each in an isolated environment made from its own hash-pinned lock.

    releases.py     the releases checked (versions/releases.yml) and where each one's lock and results live
    lock.py         `make versions-lock`: each release's lock, resolved by uv as `pip install tensorflow-cpu==X` would
    interpreters.py the Python a release runs under (found by running it: tools/python.sh find-version)
    environment.py  a throwaway environment per release (.cache/versions/), from uv's download cache
    alone.py        one snippet, copied alone into an empty folder, run in its own process; its result
    results.py      versions/results/tensorflow-<X>.yml: written (generated, literal blocks) and read back
    compare.py      what changed against the committed results or the kept outputs, as unified diffs
    __main__.py     the command line (`make versions`, `make versions-check`, `make versions-newest`)
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SNIPPETS = ROOT / "snippets"
VERSIONS = ROOT / "versions"
ENVIRONMENTS = ROOT / ".cache" / "versions"  # git-ignored; each environment is deleted after its run
UV = ROOT / ".venv" / "bin" / "uv"
