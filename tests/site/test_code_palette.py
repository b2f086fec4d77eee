"""The code-highlighting palette reads at WCAG AA (4.5:1) in both colour schemes: every Pygments token class,
in material's code blocks and in the notebook pages' cells, measured in the browser as the site draws it (the
computed text colour over the computed background, semi-transparent layers blended), not read off the CSS.
"""

from __future__ import annotations

import pytest
from pygments.token import STANDARD_TYPES

from tests.site.conftest import new_context

AA = 4.5
SCHEMES = ("light", "dark")
TOKEN_CLASSES = sorted({cls for cls in STANDARD_TYPES.values() if cls})

# One span per token class, appended to the first code block of the page; each reports its colour and the
# stack of backgrounds behind it (nearest first) up to the first opaque one.
_MEASURE = """([container, classes]) => {
  const code = document.querySelector(container);
  if (!code) return null;
  const probe = document.createElement("span");
  code.append(probe);
  const out = classes.map((cls) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = "x";
    probe.append(span);
    const layers = [];
    for (let el = span; el; el = el.parentElement) {
      const bg = getComputedStyle(el).backgroundColor;
      layers.push(bg);
      if (/^rgb\\(/.test(bg)) break;  // opaque
    }
    if (!/^rgb\\(/.test(layers[layers.length - 1])) layers.push(getComputedStyle(document.body).backgroundColor);
    return { cls, color: getComputedStyle(span).color, layers };
  });
  probe.remove();
  return out;
}"""

# (what, a page that has it, the element the token spans go into)
CODE_KINDS = [
    ("code block", "second-order/", ".md-typeset .highlight pre > code"),
    ("notebook cell", "notebooks/second-order/", ".md-typeset .highlight-ipynb pre"),
]


def _rgba(css: str) -> tuple[float, float, float, float]:
    inside = css[css.index("(") + 1 : css.rindex(")")].replace("/", ",")
    parts = [float(p) for p in inside.replace(",", " ").split()]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _over(top, bottom):
    """`top` (rgba) painted over the opaque colour `bottom`."""
    alpha = top[3]
    return tuple(top[i] * alpha + bottom[i] * (1 - alpha) for i in range(3)) + (1.0,)


def _luminance(rgb) -> float:
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, layers: list[str]) -> float:
    background = _rgba(layers[-1])
    for layer in reversed(layers[:-1]):
        background = _over(_rgba(layer), background)
    text = _over(_rgba(fg), background)
    lighter, darker = sorted((_luminance(text), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_formula():
    assert contrast("rgb(0, 0, 0)", ["rgb(255, 255, 255)"]) == pytest.approx(21.0)
    assert contrast("rgb(230, 105, 91)", ["rgb(39, 42, 53)"]) == pytest.approx(
        4.45, abs=0.01
    )  # material's slate number
    assert contrast("rgba(0, 0, 0, 0.5)", ["rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"]) == pytest.approx(3.98, abs=0.01)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_token_colour_reads_at_aa(browser, server, scheme):
    context = new_context(browser, server, color_scheme=scheme)
    bad, measured = [], 0
    try:
        tab = context.new_page()
        for what, path, container in CODE_KINDS:
            tab.goto(server.url(path), wait_until="load")
            tokens = tab.evaluate(_MEASURE, [container, TOKEN_CLASSES])
            assert tokens is not None, f"/{path} has no {container} to measure the {what} palette on"
            for token in tokens:
                measured += 1
                ratio = contrast(token["color"], token["layers"])
                if ratio < AA:
                    layers = [layer for layer in token["layers"] if layer != "rgba(0, 0, 0, 0)"]
                    bad.append(f"{what} .{token['cls']}: {token['color']} on {' over '.join(layers)} = {ratio:.2f}:1")
    finally:
        context.close()
    assert measured == len(TOKEN_CLASSES) * len(CODE_KINDS)
    assert not bad, (
        f"{len(bad)} code token colour(s) below {AA}:1 in the {scheme} scheme (fix the --md-code-hl-* colours in "
        "overrides/assets/stylesheets/site.css):\n  " + "\n  ".join(bad)
    )
