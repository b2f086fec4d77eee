"""A small repository with a release matrix in `make versions`' format, for the tests of hooks/release_matrix.py,
hooks/release_notes.py and hooks/versions_table.py (never shown on the site).

Three snippets, three releases: ``a/01_same`` prints its kept output everywhere; ``a/02_version`` prints another
output on 2.15.1 and on 2.16.2 (the same one) ; ``b/01_keras`` fails on 2.15.1.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

RELEASES = ["2.15.1", "2.16.2", "2.21.0"]
KERAS = {"2.15.1": "2.15.0", "2.16.2": "3.6.0", "2.21.0": "3.13.0"}
PYTHON = {"2.15.1": "3.11", "2.16.2": "3.12", "2.21.0": "3.13"}
SNIPPETS = {
    "snippets/a/01_same.py": ('print("same")\n', "same\n"),
    "snippets/a/02_version.py": ("import tensorflow as tf\nprint(tf.__version__)\n", "2.21.0\n"),
    "snippets/b/01_keras.py": ("import keras\nprint(keras.Variable(1.0).numpy())\n", "1.0\n"),
}
OTHER = {  # (snippet, release) -> (result, output)
    ("snippets/a/02_version.py", "2.15.1"): ("different", "2.x\n"),
    ("snippets/a/02_version.py", "2.16.2"): ("different", "2.x\n"),
    ("snippets/b/01_keras.py", "2.15.1"): (
        "failing",
        "exit code 1\nAttributeError: module 'keras' has no attribute 'Variable'\n",
    ),
}
EXPLANATIONS = {
    "snippets/a/02_version.py": {"2.15.1, 2.16.2": {"en": "It prints the release.", "ru": "Печатает выпуск."}},
    "snippets/b/01_keras.py": {"2.15.1": {"en": "Keras 2 has no Variable.", "ru": "В Keras 2 нет Variable."}},
}
PAGES = {
    "docs/a.md": "# Page A { #a }\n\nText.\n\n{* snippets/a/01_same.py *}\n\n- Item:\n\n    {* snippets/a/02_version.py *}\n",
    "docs/a.ru.md": "# Страница A { #a }\n\nТекст.\n\n{* snippets/a/01_same.py *}\n\n- Пункт:\n\n    {* snippets/a/02_version.py *}\n",
    "docs/b.md": "# Page B { #b }\n\n{* snippets/b/01_keras.py *}\n\n{* snippets/b/01_keras.py:part *}\n",
    "docs/b.ru.md": "# Страница B { #b }\n\n{* snippets/b/01_keras.py *}\n\n{* snippets/b/01_keras.py:part *}\n",
}  # fmt: skip


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def write_repository(root: Path, explanations: dict | None = None, other: dict | None = None) -> Path:
    """The files under root; ``explanations`` and ``other`` replace the defaults above."""
    other = OTHER if other is None else other
    for path, text in PAGES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    for path, (code, output) in SNIPPETS.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(code, encoding="utf-8")
        (root / path).with_suffix(".out").write_text(output, encoding="utf-8")
    versions = root / "versions"
    (versions / "results").mkdir(parents=True, exist_ok=True)
    listed = [{"tensorflow": r, "python": PYTHON[r], "lock": f"versions/locks/tensorflow-{r}.txt"} for r in RELEASES]
    (versions / "releases.yml").write_text(yaml.safe_dump(listed, sort_keys=False), encoding="utf-8")
    for release in RELEASES:
        snippets = {}
        for path, (code, output) in SNIPPETS.items():
            result, printed = other.get((path, release), ("identical", None))
            entry = {"result": result, "snippet_sha256": sha256(code), "kept_output_sha256": sha256(output)}
            if printed is not None:
                entry["output"] = printed
            snippets[path] = entry
        data = {
            "tensorflow": release,
            "keras": KERAS[release],
            "python": PYTHON[release],
            "platform": "Linux x86_64",
            "snippets": snippets,
        }
        (versions / "results" / f"tensorflow-{release}.yml").write_text(
            yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
    explained = EXPLANATIONS if explanations is None else explanations
    (versions / "differences.yml").write_text(yaml.safe_dump(explained, allow_unicode=True), encoding="utf-8")
    return root
