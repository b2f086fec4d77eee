"""Formulas are legible on any reader's machine: they are drawn in the math font the site serves (Noto Sans Math,
overrides/assets/fonts/, fetched only by pages with a formula), and the primes of f′, f″, σ‴ are marks a reader
can see and tell apart, measured on the rendered pixels (hooks/mathml.py explains the speck they were).
"""

from __future__ import annotations

import base64

from tests.site.conftest import new_context
from tests.site.siteinfo import LAY_OUT_EVERYTHING, wait_for_fonts, wait_until_settled

MATH_FONT = "Noto Sans Math"
MATH_FONT_FILE = "assets/fonts/noto-sans-math.woff2"
PRIMES = ("′", "″", "‴")
# Ink of a prime, in em of the formula's font size. Drawn at full size in the served font a prime is 0.27 em tall;
# the specks of the issue (primes at script size) were 0.16 em, and a full-size prime in DejaVu Sans is 0.19 em.
MIN_PRIME_HEIGHT_EM = 0.22
# f″ must not look like f′: the double prime's ink is at least this much wider than the single prime's.
MIN_DOUBLE_TO_SINGLE_WIDTH = 1.5
SCALE = 4  # device pixels per CSS pixel for the measurement

# Ink box (CSS px) of the pixels that differ from the background, in a PNG of one prime with its letter hidden.
_INK = """async ([png, scale]) => {
  const img = new Image();
  img.src = "data:image/png;base64," + png;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, img.width, img.height).data;
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) {
    const i = 4 * (y * img.width + x);
    if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 96) {
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { width: (x1 - x0 + 1) / scale, height: (y1 - y0 + 1) / scale };
}"""

# Every prime in the article's formulas (after its letter, or as its superscript), numbered for the steps below.
_PRIMES = """(primes) => [...document.querySelectorAll("article math mo, article math msup > mi")]
  .filter((mo) => primes.includes(mo.textContent.trim()))
  .map((mo, i) => {
    mo.dataset.primeIndex = i;
    const letter = mo.previousElementSibling;
    return { index: i, prime: mo.textContent.trim(), letter: letter ? letter.textContent : "",
             emPx: parseFloat(getComputedStyle(mo.closest("math")).fontSize) };
  })"""

_SHOW_ALONE = """(mo) => {
  mo.scrollIntoView({ block: "center" });
  if (mo.previousElementSibling) mo.previousElementSibling.style.visibility = "hidden";
  const box = (["mrow", "msup"].includes(mo.parentElement.localName) ? mo.parentElement : mo).getBoundingClientRect();
  return { x: box.left, y: box.top - 2, width: box.width, height: box.height + 4 };
}"""


def test_math_font_is_served_only_where_there_are_formulas(visits):
    bad = []
    for v in visits.values():
        fetched = [url for url in v.facts["fonts"] if url.endswith(MATH_FONT_FILE)]
        if v.facts["math"] and (not fetched or MATH_FONT not in v.facts["fontsLoaded"]):
            bad.append(
                f"{v.page.name}: {v.facts['math']} formula(s) but {MATH_FONT} not loaded "
                f"(fetched: {v.facts['fonts']}, loaded: {v.facts['fontsLoaded']})"
            )
        if not v.facts["math"] and fetched:
            bad.append(f"{v.page.name}: no formula, yet the page downloaded {MATH_FONT_FILE}")
    assert not bad, "math font (overrides/assets/stylesheets/site.css, @font-face):\n  " + "\n  ".join(bad)


def test_primes_are_legible_and_distinct(browser, server, visits):
    with_math = [v.page for v in visits.values() if v.facts["math"]]
    assert with_math, "no page with a formula found (second-order has f′ and f″)"
    context = new_context(browser, server, viewport={"width": 1280, "height": 900}, device_scale_factor=SCALE)
    bad, measured = [], []
    try:
        tab = context.new_page()
        for page in with_math:
            tab.goto(server.url(page), wait_until="commit")
            wait_until_settled(tab)
            # the blocks above a prime must not take their real height between its measurement and its photograph
            # ("no ink at all" on /cookbook/complex/ f′ #4, twice in CI): siteinfo.LAY_OUT_EVERYTHING
            tab.add_style_tag(content=LAY_OUT_EVERYTHING)
            wait_for_fonts(tab)
            for prime in tab.evaluate(_PRIMES, list(PRIMES)):
                mo = tab.locator(f'article math [data-prime-index="{prime["index"]}"]')
                clip = mo.evaluate(_SHOW_ALONE)
                png = tab.screenshot(clip=clip, animations="disabled")
                ink = tab.evaluate(_INK, [base64.b64encode(png).decode(), SCALE])
                mo.evaluate("mo => { if (mo.previousElementSibling) mo.previousElementSibling.style.visibility = ''; }")
                what = f"{page.name} {prime['letter']}{prime['prime']} (#{prime['index']})"
                if ink is None:
                    bad.append(f"{what}: no ink at all")
                    continue
                measured.append((page.name, prime["prime"], ink["width"]))
                height_em = ink["height"] / prime["emPx"]
                if height_em < MIN_PRIME_HEIGHT_EM:
                    bad.append(
                        f"{what}: the prime is {ink['width']:.2f}x{ink['height']:.2f} px, "
                        f"{height_em:.2f} em tall (needs {MIN_PRIME_HEIGHT_EM} em)"
                    )
    finally:
        context.close()
    assert any(p == "″" for _, p, _ in measured), "no f″ measured (second-order has one)"
    for name in {n for n, _, _ in measured}:
        single = [w for n, p, w in measured if n == name and p == "′"]
        double = [w for n, p, w in measured if n == name and p == "″"]
        if single and double and min(double) < MIN_DOUBLE_TO_SINGLE_WIDTH * max(single):
            bad.append(f"{name}: ″ is {min(double):.2f} px wide, ′ {max(single):.2f} px: they look alike")
    assert not bad, (
        f"{len(bad)} prime(s) too small to read or to tell apart (hooks/mathml.py draws them; the font is in "
        "overrides/assets/stylesheets/site.css):\n  " + "\n  ".join(bad)
    )
