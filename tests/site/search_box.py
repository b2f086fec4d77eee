"""The header search box, driven as a reader drives it: open the dialog, type a query, read the results.

A reader searches several times from the page they are on, without reloading it; so does this: the page is
loaded only when the tab is not on it yet (the first query, or after a result was opened), and each later query
replaces the text in the box. The results read are those of this very query: the search script sets
`data-cg-search-done` to the query whose results it shows (overrides/assets/javascripts/pagefind-search.js), and
an older query still running when a new one is typed never renders.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def search(tab, server, start_path: str, query: str) -> list[tuple[str, list[str]]]:
    """[(page path, [section anchors shown under it]), ...] for `query` typed on the page `start_path`."""
    if tab.url != server.base + start_path:
        tab.goto(server.base + start_path, wait_until="load")
    if not tab.is_visible("[data-cg-search-query]"):
        tab.click("label.md-header__button[for=__search]")
    box = tab.locator("[data-cg-search-query]")
    if not box.evaluate("box => box === document.activeElement"):
        box.click()  # after a search the cursor is still in the box, and the results under it take clicks there
    box.fill(query)
    box.press("End")
    tab.wait_for_selector(f"[data-cg-search][data-cg-search-done={query!r}]", state="attached", timeout=15000)
    items = tab.eval_on_selector_all(
        "[data-cg-search-list] > li", "items => items.map(li => [...li.querySelectorAll('a')].map(a => a.href))"
    )
    return [(urlsplit(hrefs[0]).path, [urlsplit(h).fragment for h in hrefs[1:]]) for hrefs in items]
