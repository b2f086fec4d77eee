"""Every old address of a section that moved to another page still lands on it, in Chromium, in both languages.

The symptom index was one page until issue 22; links in the wild point at `errors/#<id>` (and `ru/errors/#<id>`).
For every frozen id of tests/frozen_ids.yml that the old page now holds as a link to the new place
(tests/test_frozen_ids.py checks that link statically; hooks/errors_index.py makes it):

* with JavaScript, opening the old address ends on the new page and anchor, with the element in view;
* without JavaScript, the old page stays, and the element with that id is visible, in view, and links to the new
  page and anchor.
"""

from __future__ import annotations

from urllib.parse import urljoin

import pytest

from tests.site.conftest import new_context
from tests.test_frozen_ids import frozen, moved_to, page_ids

# The element's box overlaps the viewport (a tall element may start above it), the page has done scrolling.
IN_VIEW = """el => {
  const box = el.getBoundingClientRect();
  return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
}"""


def moved(site, lang: str) -> list[tuple[str, str, str]]:
    """(old page path, id, new page path) of every frozen id that is a link to another page now."""
    cache: dict = {}
    found = []
    for path, anchor in frozen():
        if path.startswith("/ru/") != (lang == "ru"):
            continue
        element = (page_ids(site, path, cache) or {}).get(anchor)
        target = moved_to(path, element) if element else None
        if target:
            found.append((path, anchor, target[0]))
    return found


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_old_addresses_redirect_with_javascript(browser, server, site, lang):
    addresses = moved(site, lang)
    assert len(addresses) >= 60, f"only {len(addresses)} moved ids found on the {lang} error index; is it split?"
    context = new_context(browser, server)
    tab = context.new_page()
    problems = []
    try:
        for path, anchor, new_path in addresses:
            old = server.base + path.lstrip("/") + "#" + anchor
            new = server.base + new_path.lstrip("/") + "#" + anchor
            tab.goto(old, wait_until="commit")
            try:
                tab.wait_for_url(new, timeout=10000, wait_until="load")
            except Exception:  # noqa: BLE001 - reported below with where it went
                problems.append(f"{old}: ended on {tab.url}, not {new}")
                continue
            element = tab.locator(f"[id='{anchor}']")
            try:
                tab.wait_for_function(f"() => ({IN_VIEW})(document.getElementById({anchor!r}))", timeout=5000)
            except Exception:  # noqa: BLE001
                box = element.bounding_box()
                problems.append(f"{old} -> {new}: the element #{anchor} is not in view (box {box})")
    finally:
        context.close()
    assert not problems, f"{len(problems)} old address(es) do not land with JavaScript:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_old_addresses_show_a_link_without_javascript(browser, server, site, lang):
    addresses = moved(site, lang)
    assert len(addresses) >= 60, f"only {len(addresses)} moved ids found on the {lang} error index; is it split?"
    context = new_context(browser, server, java_script_enabled=False)
    tab = context.new_page()
    problems = []
    try:
        for path, anchor, new_path in addresses:
            old = server.base + path.lstrip("/") + "#" + anchor
            new = server.base + new_path.lstrip("/") + "#" + anchor
            if tab.url.split("#")[0] != old.split("#")[0]:
                tab.goto(old, wait_until="load")
            else:
                tab.goto(old, wait_until="commit")  # the same page: the browser only scrolls to the fragment
            if tab.url != old:
                problems.append(f"{old}: without JavaScript it went to {tab.url}")
                continue
            element = tab.locator(f"[id='{anchor}']")
            if element.count() != 1 or not element.is_visible():
                problems.append(f"{old}: no visible element with that id")
                continue
            href = element.get_attribute("href")
            if href is None or urljoin(old, href) != new:
                problems.append(f"{old}: the element links to {href!r}, not {new}")
            if not element.evaluate(IN_VIEW):
                problems.append(f"{old}: the link is not in view (box {element.bounding_box()})")
    finally:
        context.close()
    assert not problems, f"{len(problems)} old address(es) do not land without JavaScript:\n" + "\n".join(problems)
