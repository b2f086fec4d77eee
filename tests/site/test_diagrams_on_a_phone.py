"""On a 390 px phone a reader can read every diagram: a tap opens it in the lightbox (mkdocs-glightbox, see
mkdocs.yml and site.css) at a size where its smallest text is at least 12 CSS px, and a finger pans across it.

The open lightbox passes axe-core's WCAG A/AA rules too (the page behind it is checked in test_accessibility.py).

Text inside an <img> is out of the page's reach, so each SVG is also parsed in the page: its text elements' font
sizes (user units) times the lightbox image's drawn width over the viewBox width give the size the reader sees.
"""

from __future__ import annotations

from tests.site.conftest import new_context
from tests.site.siteinfo import wait_until_settled
from tests.site.test_accessibility import AXE, WCAG_A_AA

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MIN_TEXT_PX = 12

# The SVG drawn by `img`, measured: viewBox width, and its smallest text (font size and box in user units).
_SVG_TEXT = """async (img) => {
  const source = await (await fetch(img.currentSrc || img.src)).text();
  const svg = new DOMParser().parseFromString(source, "image/svg+xml").documentElement;
  const holder = document.createElement("div");
  holder.style.cssText = "position:absolute; left:-10000px; top:0; visibility:hidden";
  holder.append(document.importNode(svg, true));
  document.body.append(holder);
  const drawn = holder.firstElementChild;
  const texts = [...drawn.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) => ({
    text: t.textContent.trim(), size: parseFloat(getComputedStyle(t).fontSize), height: t.getBBox().height,
  }));
  holder.remove();
  texts.sort((a, b) => a.size - b.size);
  return { viewBoxWidth: drawn.viewBox.baseVal.width, texts: texts.length, smallest: texts[0] };
}"""

# Code blocks far from the viewport are laid out only when scrolled near (content-visibility in site.css), so the
# page moves for a few frames after a jump: wait until the image has kept its place for five frames.
_SCROLL_INTO_VIEW_AND_SETTLE = """async (img) => {
  img.scrollIntoView({ block: "center" });
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  let last = null, still = 0;
  for (let i = 0; i < 120 && still < 5; i++) {
    await frame();
    const top = img.getBoundingClientRect().top;
    still = top === last ? still + 1 : 0;
    last = top;
    if (still === 0) img.scrollIntoView({ block: "center" });
  }
  return img.getBoundingClientRect().width;
}"""

_AXE_ON_LIGHTBOX = """async (tags) => (await axe.run(".glightbox-container", {
  runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })).violations
  .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)"""

_LIGHTBOX_IMAGE = ".glightbox-container .gslide.current .gslide-image img"


def test_every_diagram_opens_readable_on_a_phone(browser, server, visits):
    with_images = [v.page for v in visits.values() if v.facts["images"]]
    assert with_images, "no page with a diagram found (expected the four chapters' diagrams)"
    context = new_context(browser, server, **PHONE)
    context.add_init_script(path=str(AXE))
    bad, checked = [], 0
    try:
        tab = context.new_page()
        for page in with_images:
            tab.goto(server.url(page), wait_until="commit")
            wait_until_settled(tab)
            images = tab.locator("article.md-content__inner img")
            for i in range(images.count()):
                image = images.nth(i)
                src = image.get_attribute("src")
                where = f"{page.name} {src}"
                if not image.evaluate("img => !!img.closest('a.glightbox')"):
                    bad.append(f"{where}: not in a lightbox link (tapping it does nothing)")
                    continue
                inline_width = image.evaluate(_SCROLL_INTO_VIEW_AND_SETTLE)
                image.tap()
                opened = tab.locator(_LIGHTBOX_IMAGE)
                opened.wait_for(state="visible")
                opened.evaluate("img => img.decode()")
                svg = opened.evaluate(_SVG_TEXT)
                drawn = opened.evaluate("img => img.getBoundingClientRect().width")
                scale = drawn / svg["viewBoxWidth"]
                smallest = svg["smallest"]
                seen = smallest["size"] * scale
                checked += 1
                if seen < MIN_TEXT_PX:
                    bad.append(
                        f"{where}: smallest text {smallest['text']!r} is {seen:.1f} px in the lightbox "
                        f"(drawn {drawn:.0f} px wide for a {svg['viewBoxWidth']:.0f}-unit viewBox; in the page "
                        f"{smallest['size'] * inline_width / svg['viewBoxWidth']:.1f} px)"
                    )
                # The whole drawing can be panned into view: the box scrolls as far as the image reaches.
                pan = tab.locator(".glightbox-container .gslide.current .gslide-image").evaluate(
                    "box => { box.scrollLeft = box.scrollWidth; const img = box.querySelector('img');"
                    " return { right: img.getBoundingClientRect().right, box: box.getBoundingClientRect().right,"
                    " left: img.offsetLeft }; }"
                )
                if pan["right"] > pan["box"] + 1 or pan["left"] < 0:
                    bad.append(f"{where}: part of the diagram cannot be panned into view ({pan})")
                for v in tab.evaluate(_AXE_ON_LIGHTBOX, WCAG_A_AA):
                    bad.append(f"{where}: the open lightbox fails axe-core {v}")
                tab.keyboard.press("Escape")
                opened.wait_for(state="detached")
    finally:
        context.close()
    assert checked or bad, "no diagram was opened"
    assert not bad, (
        f"{len(bad)} diagram(s) not readable on a 390 px phone (text below {MIN_TEXT_PX} px after a tap opens it):\n  "
        + "\n  ".join(bad)
    )
