"""Formulas drawn at build time: arithmatex's `\\(..\\)` / `\\[..\\]` output becomes MathML.

Chromium, Firefox and Safari draw MathML natively, so a page with formulas loads no script, no font
and nothing from another host. A formula latex2mathml cannot convert is reported as a warning, which
fails the strict build (the page would otherwise show raw LaTeX).
"""

from __future__ import annotations

import html
import logging
import re

from latex2mathml.converter import convert

log = logging.getLogger("mkdocs.hooks.mathml")

# pymdownx.arithmatex (generic mode) wraps each formula in an element with class "arithmatex".
_FORMULA = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">(?P<tex>.*?)</(?P=tag)>',
    re.DOTALL,
)
_DELIMITERS = {"span": (r"\(", r"\)"), "div": (r"\[", r"\]")}


# latex2mathml writes f' as <msup><mi>f</mi><mi>′</mi></msup>: the prime shrunk to script size and raised again.
# \operatorname{sinc}' has an <mo>sinc</mo> base instead: the same fix.
# U+2032-2034 are already small raised marks, so Chromium drew a speck 2.5 px tall at 16 px (0.16 em; in Noto Sans
# Math, DejaVu Sans and Liberation Serif alike) and f′ looked like f″. Set after the letter at full size, as text
# writes them, they are 0.27 em tall in the site's math font (tests/site/test_formulas_on_screen.py measures it).
_PRIMED = re.compile(r"<msup>(?P<base><m[io]>[^<]*</m[io]>)<mi>(?P<primes>&#x0203[234];|[\u2032-\u2034])</mi></msup>")


def _primes_at_full_size(mathml: str) -> str:
    return _PRIMED.sub(lambda m: f'<mrow>{m["base"]}<mo lspace="0.1em" rspace="0">{m["primes"]}</mo></mrow>', mathml)


def to_mathml(tex: str, display: bool) -> str:
    """One formula (LaTeX without delimiters) as a <math> element."""
    return _primes_at_full_size(convert(tex.strip(), display="block" if display else "inline"))


def _replace(match: re.Match, where: str) -> str:
    tag = match["tag"]
    tex = html.unescape(match["tex"]).strip()
    start, end = _DELIMITERS[tag]
    if tex.startswith(start) and tex.endswith(end):
        tex = tex[len(start) : -len(end)]
    try:
        mathml = to_mathml(tex, display=(tag == "div"))
    except Exception as exc:  # noqa: BLE001 - any converter failure must surface in the strict build
        log.warning("%s: formula cannot be drawn as MathML (%s: %s): %s", where, type(exc).__name__, exc, tex)
        return match[0]
    return f'<{tag} class="arithmatex">{mathml}</{tag}>'


def convert_formulas(content: str, where: str = "page") -> str:
    return _FORMULA.sub(lambda m: _replace(m, where), content)


def on_page_content(html_content, page, config, files):
    if 'class="arithmatex"' not in html_content:
        return html_content
    return convert_formulas(html_content, page.file.src_path)
