"""The math font the site serves (overrides/assets/fonts/) is the file of the npm package pinned in package.json,
with its licence beside it: updating the package without copying the font (or the reverse) fails here."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "@fontsource/noto-sans-math"
SERVED = ROOT / "overrides" / "assets" / "fonts" / "noto-sans-math.woff2"
LICENSE = ROOT / "overrides" / "assets" / "fonts" / "noto-sans-math.LICENSE.txt"
INSTALLED = ROOT / "node_modules" / PACKAGE


def test_served_math_font_is_the_pinned_package():
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"][PACKAGE]
    installed = json.loads((INSTALLED / "package.json").read_text())["version"]
    assert installed == pinned, f"node_modules has {PACKAGE} {installed}, package.json pins {pinned}: run `npm ci`"
    source = INSTALLED / "files" / "noto-sans-math-latin-400-normal.woff2"
    assert SERVED.read_bytes() == source.read_bytes(), (
        f"{SERVED.relative_to(ROOT)} differs from {PACKAGE} {pinned}: cp {source.relative_to(ROOT)} {SERVED.relative_to(ROOT)}"
    )
    assert LICENSE.read_text() == (INSTALLED / "LICENSE").read_text(), (
        f"copy {PACKAGE}'s LICENSE to {LICENSE.relative_to(ROOT)}"
    )
    assert "SIL Open Font License" in LICENSE.read_text()
