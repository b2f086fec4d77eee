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


def test_built_font_has_every_glyph_the_formulas_draw(built_site):
    """The site serves the font cut down by hooks/math_font.py: every character of every built formula, in both
    languages, that the full font has is still in it (a missing one would be drawn in another font), with the MATH table MathML lays out
    with, and it is a small fraction of the full font. Read here with its own scan of the pages, not the hook's."""
    import html as html_module
    import re

    from fontTools.ttLib import TTFont

    site = built_site.site_dir
    served = site / "assets" / "fonts" / "noto-sans-math.woff2"
    font = TTFont(served)
    cmap = font.getBestCmap()
    full = TTFont(SERVED).getBestCmap()  # a character the full font lacks falls back to another font anyway
    missing: dict[str, set[str]] = {}
    formulas = 0
    for page in sorted(site.rglob("*.html")):
        for formula in re.findall(r"<math\b.*?</math>", page.read_text(encoding="utf-8"), re.S):
            formulas += 1
            drawn = set(html_module.unescape(re.sub(r"<[^>]+>", "", formula))) - set(" \n\t")
            if "<msqrt" in formula or "<mroot" in formula:
                drawn.add("\u221a")  # the radical sign, drawn by the browser from the font
            lacking = {c for c in drawn if ord(c) in full and ord(c) not in cmap}
            if lacking:
                missing.setdefault(str(page.relative_to(site)), set()).update(lacking)
    assert formulas > 100, f"only {formulas} formulas found in the built site: is hooks/mathml.py running?"
    assert not missing, (
        f"{served.relative_to(site)} lacks glyphs the formulas draw (hooks/math_font.py cuts the font down): "
        + "; ".join(f"{page}: {' '.join(sorted(chars))}" for page, chars in missing.items())
    )
    for letter in "xhσ":  # a one-letter <mi> is drawn in its mathematical italic form
        form = "\u210e" if letter == "h" else chr(0x1D465 if letter == "x" else 0x1D70E)
        assert ord(form) in cmap, f"{served.relative_to(site)} lacks the italic {letter} (U+{ord(form):04X})"
    assert "MATH" in font, f"{served.relative_to(site)} lost its MATH table: brackets and scripts would be misplaced"
    assert served.stat().st_size < SERVED.stat().st_size / 5, (
        f"{served.relative_to(site)} is {served.stat().st_size} bytes, not cut down from {SERVED.stat().st_size}"
    )
