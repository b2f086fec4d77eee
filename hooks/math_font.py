"""The math font, cut down to the characters the site's formulas use.

The served font (overrides/assets/fonts/noto-sans-math.woff2, the pinned npm package's file) is 270 KB: every
mathematical symbol Noto has. The formulas use about eighty characters, so after the build this hook writes, in its
place in the site, a copy with only those glyphs (about 15 KB), its MATH table (how MathML stretches brackets and
places scripts) kept. A page with a formula then waits for 15 KB instead of 270 KB before its text settles
(Lighthouse, issue 22).

The characters are read from the built pages of every language, so nothing has to be listed by hand. Two kinds of
glyph are drawn without being in a formula's text, and are added: the mathematical italic form of each letter
(Chromium draws a one-letter <mi> with it: MathML Core's text-transform: math-auto) and the radical sign of a
root. The cut copy is cached in .cache/math-font/ under a key made of the source font, the characters and the
fontTools version, so a rebuild that adds no new character costs no subsetting.
tests/test_math_font.py checks the built font against the pages.
"""

from __future__ import annotations

import hashlib
import html
import re
import shutil
import unicodedata
from pathlib import Path

import fontTools
from fontTools import subset
from fontTools.ttLib import TTFont
from mkdocs.plugins import event_priority

import site_languages

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "overrides" / "assets" / "fonts" / "noto-sans-math.woff2"
SERVED = "assets/fonts/noto-sans-math.woff2"  # in the site
CACHE = ROOT / ".cache" / "math-font"

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TAG = re.compile(r"<[^>]+>")
_LETTER = re.compile(r"(LATIN|GREEK) (SMALL|CAPITAL) LETTER (\w+)$")
_ITALIC_EXCEPTIONS = {"h": "\u210e"}  # PLANCK CONSTANT: the italic h is not in the alphanumeric block
# Elements the browser draws with a glyph that is not in their text: the radical sign of a square or n-th root.
DRAWN = {"msqrt": "\u221a", "mroot": "\u221a"}


def italic(char: str) -> str | None:
    """The mathematical italic form of a Latin or Greek letter, as Chromium draws a one-letter <mi>."""
    if char in _ITALIC_EXCEPTIONS:
        return _ITALIC_EXCEPTIONS[char]
    match = _LETTER.match(unicodedata.name(char, ""))
    if not match:
        return None
    try:
        return unicodedata.lookup(f"MATHEMATICAL ITALIC {match[2]} {match[3]}")
    except KeyError:
        return None


def formula_characters(site: Path) -> set[str]:
    """Every character inside a <math> element of the built site, with the italic forms of its letters."""
    chars: set[str] = set()
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "<math" in text:
            for formula in _MATH.findall(text):
                chars |= set(html.unescape(_TAG.sub("", formula)))
                chars |= {glyph for element, glyph in DRAWN.items() if f"<{element}" in formula}
    chars -= set(" \n\t")
    return chars | {form for form in map(italic, chars) if form}


def subset_font(source: Path, chars: set[str], out: Path) -> None:
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # every OpenType feature of the kept glyphs (ssty: script-size primes)
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(chars)))
    subsetter.subset(font)
    font.save(out)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built every language
def on_post_build(config):
    if site_languages.building_nested_language(config):  # the outer build sees every language's pages
        return
    site = Path(config.site_dir)
    chars = formula_characters(site)
    key = hashlib.sha256(SOURCE.read_bytes() + "".join(sorted(chars)).encode() + fontTools.version.encode())
    cached = CACHE / f"{key.hexdigest()[:20]}.woff2"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(".partial")
        subset_font(SOURCE, chars, partial)
        partial.replace(cached)
    shutil.copyfile(cached, site / SERVED)
