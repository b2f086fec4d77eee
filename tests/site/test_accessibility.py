"""axe-core (npm, pinned in package.json; `make test` installs it with `npm ci`) on every page of the built site,
in both languages, in the light and the dark scheme, on a desktop and on a 390 px phone: zero violations of the
WCAG 2.0/2.1 A and AA rules.

Each (scheme, device) pair is one test and one browser context; its pages are visited six tabs at a time, and axe runs in all
of them at once (each tab has its own renderer process, so the two cores share the work).

Time: colour contrast of the highlighted code tokens (12,000 spans on the error index, the same ones on every
device and in both languages) was two thirds of axe's work, about ten minutes of the suite on a busy machine.
The contrast rule leaves those spans out; test_code_palette.py measures every token colour the highlighter can
produce, in both schemes, on the code blocks' real background. Everything else, text in code blocks included, axe
checks everywhere, and every other rule checks the spans too.

How they are left out matters: given as axe's `exclude` context, each span is one entry, and axe tests every node
of the page against every entry (`_isNodeInContext`): 16,000 nodes times 12,000 spans, a minute per run on the
error index, nine tenths of the whole test. So the spans are marked with an attribute and only the contrast rule's
selector (by default `*`) leaves the marked ones out: the same nodes unchecked, at no cost.
"""

from __future__ import annotations

import pytest

from tests.site.conftest import TABS_AT_ONCE, new_context
from tests.site.siteinfo import LAY_OUT_EVERYTHING, ROOT, wait_until_settled

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SCHEMES = ("light", "dark")
DEVICES = {
    "desktop 1280 px": {"viewport": {"width": 1280, "height": 900}},
    "phone 390 px": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
# Highlighted code tokens (Pygments classes in material's and the notebooks' code blocks), left out of the contrast
# rule alone (with anything inside them).
CODE_TOKENS = [".highlight code span[class]", ".highlight-ipynb span[class]"]
TOKEN_MARK = "data-cg-code-token"


_START_AXE = """([tags, tokens, mark]) => {
  document.querySelectorAll(tokens.flatMap((t) => [t, `${t} *`]).join(", ")).forEach((n) => n.setAttribute(mark, ""));
  axe.configure({ rules: [{ id: "color-contrast", selector: `*:not([${mark}])` }] });
  const options = { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] };
  window.__axe = axe.run(document, options).then((r) => {
    const found = r.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")), why: v.nodes[0]?.failureSummary || "" }));
    // axe lists a rule that passed anywhere (with one node): a contrast rule that checked nothing is a test bug.
    if (![...r.passes, ...r.violations].some((v) => v.id === "color-contrast")) {
      found.push({ rule: "color-contrast", impact: "none", targets: [], why: "",
        help: "checked no element: its selector (tests/site/test_accessibility.py, _START_AXE) leaves out too much" });
    }
    return found;
  });
}"""


# scroll-regions.js marks each region that scrolls sideways as it first measures it, while most code blocks are not
# laid out yet (content-visibility: auto). Once the page is laid out in full, each marked element must scroll and
# each code block that scrolls must be marked; axe checks only the second half (scrollable-region-focusable).
_SCROLL_REGIONS_AGREE = """() => {
  const marked = (el) => el.hasAttribute("data-cg-scroll-region") && el.getAttribute("tabindex") === "0";
  const headings = [...document.querySelectorAll("article [id]:is(h1, h2, h3, h4, h5, h6)")];
  const where = (el) => {
    const above = headings.filter((h) => h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
    const file = el.closest("div.highlight")?.querySelector(":scope > .filename")?.textContent;
    return `${el.tagName.toLowerCase()} under #${above?.id || "(top)"}${file ? ` (${file})` : ""}`;
  };
  const elements = new Set([...document.querySelectorAll(".md-typeset div.highlight > pre > code, [data-cg-scroll-region]")]);
  return [...elements].filter((el) => marked(el) !== (el.scrollWidth > el.clientWidth + 1)).map((el) => ({
    rule: "scroll-region", impact: "test", help: marked(el)
      ? "marked as a region that scrolls sideways, but it fits (overrides/assets/javascripts/scroll-regions.js)"
      : "scrolls sideways, but is not marked as a region (overrides/assets/javascripts/scroll-regions.js)",
    targets: [where(el) + `: scrollWidth ${el.scrollWidth}, clientWidth ${el.clientWidth}`],
    why: "",
  }));
}"""


def axe_violations(browser, server, pages, scheme: str, device: str) -> dict[str, list[dict]]:
    """{page name: [violation, ...]} for one scheme on one device"""
    if not AXE.is_file():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run `make test` (it runs `npm ci`), or `npm ci` by hand")
    context = new_context(browser, server, color_scheme=scheme, **DEVICES[device])
    context.add_init_script(path=str(AXE))
    results = {}
    try:
        for i in range(0, len(pages), TABS_AT_ONCE):
            tabs = [(page, context.new_page()) for page in pages[i : i + TABS_AT_ONCE]]
            for page, tab in tabs:
                tab.goto(server.url(page), wait_until="commit")
            for _page, tab in tabs:
                wait_until_settled(tab)
                tab.add_style_tag(content=LAY_OUT_EVERYTHING)
                tab.evaluate(_START_AXE, [WCAG_A_AA, CODE_TOKENS, TOKEN_MARK])
            for page, tab in tabs:
                results[page.name] = tab.evaluate("() => window.__axe") + tab.evaluate(_SCROLL_REGIONS_AGREE)
                tab.close()
    finally:
        context.close()
    return results


# One test per scheme and device, grouped by scheme (tests/conftest.py): under `make test` the two workers each
# take one scheme at the start of the run, instead of one worker running all four while the other waits.
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_finds_no_wcag_a_or_aa_violation(browser, server, pages, scheme, device):
    by_page = axe_violations(browser, server, pages, scheme, device)
    assert len(by_page) == len(pages)
    bad = []
    for name, violations in sorted(by_page.items()):
        for v in violations:
            shown = ", ".join(v["targets"][:5]) + (f" (+{len(v['targets']) - 5} more)" if len(v["targets"]) > 5 else "")
            bad.append(
                f"{name} [{scheme}, {device}] {v['rule']} ({v['impact']}): {v['help']}\n"
                f"      at {shown}\n      {v['why'].splitlines()[-1].strip() if v['why'] else ''}"
            )
    assert not bad, (
        f"axe-core {WCAG_A_AA} found {len(bad)} violation(s) (page [scheme, device] rule: what, where):\n  "
        + "\n  ".join(bad)
    )
