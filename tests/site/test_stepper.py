"""The where-dy stepper (#step-through) in Chromium, driven with the keyboard only, in both languages, on a desktop
and on a 390 px phone: every case at every x, every step, each number shown against the line snippet 17 printed
for that step (its kept output, read here without tools/where_dy_stepper.py). Each step changes the live region.
With JavaScript off, the page is the page without the stepper: same text, same images, same height.
The script and its styles are small, loaded only on the where-dy pages, and request nothing from elsewhere.

The stepper's data and words: tests/where_dy_comes_from/test_stepper_data.py; axe-core: test_accessibility.py.
"""

from __future__ import annotations

import gzip
import re
import time

import pytest

from tests.site.conftest import new_context
from tests.site.siteinfo import LAY_OUT_EVERYTHING, ROOT, wait_for_fonts, wait_until_settled

TRACE = ROOT / "snippets" / "where_dy_comes_from" / "17_step_through_trace.out"
PAGES = {"en": "where-dy-comes-from/", "ru": "ru/where-dy-comes-from/"}
DEVICES = {
    "desktop 1280 px": {"viewport": {"width": 1280, "height": 900}},
    "phone 390 px": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
FILES = ("assets/javascripts/dy-stepper.js", "assets/stylesheets/dy-stepper.css")
BUDGET = 15 * 1024  # bytes, gzipped, script and styles together
NUMBER = re.compile(r"-?\d+\.\d{4}")
# The snippet's case names, in the order of the case menu, and how the boxes write its operations.
CASES = [
    "the output as the target",
    "L = 3*y",
    "L = y**2",
    "output_gradients = 5",
    "two consumers, L = 3*y + y**2",
    "a chain of two, L = square(y)",
]
SHOWN_AS = {"3*y": "3·y", "y**2": "y²"}

# What a reader sees of the stepper at this step (text that is not visibility:hidden).
_DISPLAYED = """() => {
  const root = document.querySelector("[data-dy-stepper]");
  const current = [...root.querySelectorAll(".dy-box")].filter((b) => b.classList.contains("is-current"));
  return {
    live: root.querySelector("[aria-live]")?.innerText ?? "",
    politeness: root.querySelector("[aria-live]")?.getAttribute("aria-live"),
    progress: root.querySelector(".dy-stepper__progress").innerText,
    current: current.map((b) => ({ head: b.querySelector(".dy-box__head code").innerText, text: b.innerText,
                                   ariaCurrent: b.getAttribute("aria-current") })),
    tape: root.querySelector(".dy-stepper__tape").innerText,
    focused: document.activeElement.className + " " + document.activeElement.tagName,
    outline: getComputedStyle(document.activeElement).outlineStyle,
    outlineWidth: parseFloat(getComputedStyle(document.activeElement).outlineWidth),
  };
}"""


def printed_runs() -> dict[tuple[str, str], list[str]]:
    runs, current = {}, None
    for line in TRACE.read_text(encoding="utf-8").splitlines():
        header = re.fullmatch(r"(\S.*), x = (-?\d+\.\d+):", line)
        if header:
            current = runs.setdefault((header[1], header[2]), [])
        else:
            current.append(line.strip())
    return runs


def numbers(text: str) -> set[str]:
    return set(NUMBER.findall(text))


def expected_head(lines: list[str], i: int) -> str:
    """The name on the box a step highlights: x for the first and last step, else the operation of its line."""
    line = lines[i]
    if line.startswith(("watch", "result")):
        return "x"
    if line.startswith("start"):
        line = [ln for ln in lines if ln.startswith("forward")][-1]
    op = re.match(r"(?:forward|backward) (.+?)(?: grad)?:", line)[1]
    return SHOWN_AS.get(op, op)


def press_until(tab, key: str, selector: str, limit: int = 600) -> int:
    for count in range(limit):
        if tab.evaluate("(s) => document.activeElement.matches(s)", selector):
            return count
        tab.keyboard.press(key)
    pytest.fail(f"{limit} presses of {key} never reached {selector}")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", PAGES)
def test_keyboard_steps_show_the_snippet_numbers(browser, server, lang, device):
    runs = printed_runs()
    xs = list(dict.fromkeys(x for _, x in runs))
    context = new_context(browser, server, **DEVICES[device])
    offsite = []
    context.on("request", lambda r: offsite.append(r.url) if not r.url.startswith(server.base) else None)
    tab = context.new_page()
    errors = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    try:
        tab.goto(server.url(PAGES[lang]))
        wait_until_settled(tab)
        case_menu, x_menu = "[data-dy-stepper] select >> nth=0", "[data-dy-stepper] select >> nth=1"
        press_until(tab, "Tab", "[data-dy-stepper] select")
        problems = []
        for c, case in enumerate(CASES):
            if c:
                tab.keyboard.press("ArrowDown")  # on the case menu: the next case
            assert tab.eval_on_selector(case_menu, "s => s.selectedIndex") == c
            tab.keyboard.press("Tab")  # the x menu
            tab.keyboard.press("Home")
            for j, x in enumerate(xs):
                if j:
                    tab.keyboard.press("ArrowDown")
                assert tab.eval_on_selector(x_menu, "s => s.value") == x
                lines = runs[(case, x)]
                where = f"{PAGES[lang]} [{device}] {case}, x = {x}"
                tab.keyboard.press("Tab")  # Previous
                tab.keyboard.press("Tab")  # Next
                seen = tab.evaluate(_DISPLAYED)
                if "dy-stepper__next" not in seen["focused"]:
                    pytest.fail(f"{where}: two Tabs after the x menu should reach Next, not {seen['focused']}")
                if seen["outline"] == "none" or seen["outlineWidth"] < 2:
                    problems.append(f"{where}: the focused Next button has no visible outline")
                before = None
                for i, line in enumerate(lines):
                    if i:
                        tab.keyboard.press("Enter")
                    seen = tab.evaluate(_DISPLAYED)
                    step = f"{where}, step {i + 1} ({line!r})"
                    if seen["politeness"] != "polite":
                        problems.append(f"{step}: no aria-live region")
                    if numbers(seen["live"]) != numbers(line):
                        problems.append(f"{step}: the sentence shows {sorted(numbers(seen['live']))}")
                    if seen["live"] == before:
                        problems.append(f"{step}: the live region did not change")
                    before = seen["live"]
                    if f"{i + 1}" not in seen["progress"] or f"{len(lines)}" not in seen["progress"]:
                        problems.append(f"{step}: progress says {seen['progress']!r}")
                    heads = [b["head"].strip() for b in seen["current"]]
                    if heads != [expected_head(lines, i)] or seen["current"][0]["ariaCurrent"] != "step":
                        problems.append(f"{step}: highlighted {heads}, expected {expected_head(lines, i)}")
                    elif not numbers(line) <= numbers(seen["current"][0]["text"]) | numbers(seen["live"]):
                        problems.append(f"{step}: the box shows {seen['current'][0]['text']!r}")
                    shown = numbers(seen["tape"])
                    so_far = set().union(*(numbers(ln) for ln in lines[: i + 1]))
                    if shown != so_far:
                        problems.append(f"{step}: the boxes show {sorted(shown)}, printed so far {sorted(so_far)}")
                tab.keyboard.press("Enter")  # past the last step: nothing changes
                if tab.evaluate(_DISPLAYED)["live"] != before:
                    problems.append(f"{where}: Next after the last step changed the step")
                tab.keyboard.press("Shift+Tab")  # Previous: one step back, then all the way to the first
                tab.keyboard.press("Enter")
                if len(lines) > 1 and numbers(tab.evaluate(_DISPLAYED)["live"]) != numbers(lines[-2]):
                    problems.append(f"{where}: Previous did not go back to step {len(lines) - 1}")
                for _ in lines:
                    tab.keyboard.press("Enter")
                if numbers(tab.evaluate(_DISPLAYED)["live"]) != numbers(lines[0]):
                    problems.append(f"{where}: Previous did not go back to the first step")
                tab.keyboard.press("Shift+Tab")  # back to the x menu
            tab.keyboard.press("Shift+Tab")  # back to the case menu
        assert not problems, f"{len(problems)} problem(s):\n  " + "\n  ".join(problems[:40])
        assert not errors, f"script errors on {PAGES[lang]}: {errors}"
        assert not offsite, f"requests that leave the site: {offsite}"
    finally:
        context.close()


def settled_read(tab, read: str) -> dict:
    """`read` once every font face has loaded and the article's height no longer moves (two reads 100 ms apart
    agree; timers do not run with JavaScript off, so the waiting is done here)."""
    wait_for_fonts(tab)
    last = tab.evaluate(read)
    for _ in range(50):
        time.sleep(0.1)
        now = tab.evaluate(read)
        if now["height"] == last["height"]:
            return now
        last = now
    return last


def serve(page: str):
    """A route handler that answers with this HTML."""
    return lambda route: route.fulfill(body=page, content_type="text/html")


@pytest.mark.parametrize("lang", PAGES)
def test_without_javascript_the_page_is_the_page_without_the_stepper(browser, server, site, lang):
    """The stepper's block is hidden and its data inert: the article reads, shows and measures exactly as the same
    HTML with the stepper's block, data, script and stylesheet cut out."""
    html = (site / PAGES[lang] / "index.html").read_text(encoding="utf-8")
    cuts = [
        re.compile(
            r'<div class="dy-stepper" data-dy-stepper="data-dy-stepper" hidden="hidden">.*?</ul>\s*</div>', re.S
        ),
        re.compile(r"<script type=\"application/json\" data-dy-stepper-steps[^>]*>.*?</script>", re.S),
        re.compile(r'<link rel="stylesheet" href="[^"]*dy-stepper\.css">'),
        re.compile(r'<script src="[^"]*dy-stepper\.js" defer(?:="")?></script>'),
    ]
    without = html
    for cut in cuts:
        without, count = cut.subn("", without, count=1)
        assert count == 1, f"{PAGES[lang]}: the built page has no {cut.pattern[:60]!r} (the test's cut is stale)"
    read = """async () => {
      const a = document.querySelector("article");
      const images = [...a.querySelectorAll("img")];  // lazy ones too, so that each has its real height
      images.forEach((i) => { i.loading = "eager"; });
      await Promise.all(images.map((i) => i.complete ? null : new Promise((done) => {
        i.addEventListener("load", done, { once: true });
        i.addEventListener("error", done, { once: true });
      })));
      await document.fonts.ready;  // after siteinfo.wait_for_fonts: a font that lands late moves the height
      return { text: a.innerText, height: a.getBoundingClientRect().height,
               images: [...a.querySelectorAll("img")].map((i) => i.getAttribute("src") + " " + i.getAttribute("alt")) };
    }"""
    context = new_context(browser, server, java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        tab = context.new_page()
        # off-screen code blocks take a placeholder height until Chromium gets round to them (content-visibility:
        # auto), so under load two loads of the same page measured 370 px apart in CI: both are served with every
        # code block laid out (add_style_tag waits for a script, and there is none here)
        laid_out = f"<style>{LAY_OUT_EVERYTHING}</style></head>"
        for name, body in (("with-stepper", html), ("without-stepper", without)):
            assert body.count("</head>") == 1, f"{PAGES[lang]}: the built page has no single </head>"
            tab.route(f"**/{name}", serve(body.replace("</head>", laid_out)))
        tab.goto(server.url(PAGES[lang]) + "with-stepper")
        with_stepper = settled_read(tab, read)
        tab.goto(server.url(PAGES[lang]) + "without-stepper")
        without_stepper = settled_read(tab, read)
    finally:
        context.close()
    assert with_stepper["images"] == without_stepper["images"]
    assert with_stepper["text"] == without_stepper["text"], "without JavaScript the stepper's words show on the page"
    assert abs(with_stepper["height"] - without_stepper["height"]) < 1, (
        f"without JavaScript the stepper takes room: the article is {with_stepper['height']} px high, "
        f"{without_stepper['height']} px without it"
    )
    assert "data-dy-stepper" in html and 'hidden="hidden"' in html


def test_loaded_only_on_the_where_dy_pages_and_small(site):
    using = sorted(
        str(p.parent.relative_to(site)) for p in site.rglob("index.html") if "dy-stepper.js" in p.read_text("utf-8")
    )
    assert using == ["ru/where-dy-comes-from", "where-dy-comes-from"], f"pages that load the stepper: {using}"
    size = sum(len(gzip.compress((site / f).read_bytes(), 9)) for f in FILES)
    assert size < BUDGET, f"{' + '.join(FILES)}: {size} bytes gzipped, over {BUDGET}"
    for f in FILES:
        text = (site / f).read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), f"{f} names another host"


def test_reduced_motion_turns_transitions_off(browser, server):
    context = new_context(browser, server, reduced_motion="reduce")
    try:
        tab = context.new_page()
        tab.goto(server.url(PAGES["en"]))
        wait_until_settled(tab)
        durations = tab.evaluate(
            "() => [...document.querySelectorAll('[data-dy-stepper] *')].map((n) => getComputedStyle(n)"
            ".transitionDuration).filter((d) => d.split(',').some((t) => parseFloat(t) > 0))"
        )
    finally:
        context.close()
    assert not durations, f"with prefers-reduced-motion: reduce, the stepper still animates: {durations}"
