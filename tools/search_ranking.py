"""Measure the site search on the whole frozen query set at once, while its ranking is tuned (issue 22).

    .venv/bin/python -m tools.search_ranking [site dir]      # default: site/ (run `make build` first)

For every query of tests/site/search_queries.yml it asks the search script of the built site what the search box
would show (`window.cgSearchShown`, the same code path as typing, without the typing) and prints each query whose
answer is not the first page and its first section, then the count. The tests (tests/site/test_search_first.py)
still type every query into the box; this is the quick loop for trying a weight or a ranking option: after an edit
of overrides/assets/javascripts/pagefind-search.js, copying it into site/assets/javascripts/ is enough; after an
edit of hooks/pagefind_index.py, build again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

from tests.site.siteinfo import SiteServer, launch_chromium
from tests.site.test_search_first import QUERIES, STILL_FAILING, expected_page, page_title_ids, site_headings

ROOT = Path(__file__).resolve().parent.parent


def main(site: Path) -> int:
    found, titles = site_headings(site), page_title_ids(site)
    failing = []
    with SiteServer(site) as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        tab = browser.new_page()
        for lang in ("en", "ru"):
            tab.goto(server.base + ("ru/" if lang == "ru" else ""), wait_until="load")
            for n, item in enumerate(QUERIES[lang], 1):
                case = f"{lang}-{n:02d}-{item['id']}"
                page = expected_page(found, lang, item)
                shown = tab.evaluate("q => window.cgSearchShown(q)", item["q"])
                first = urlsplit(shown[0][0]).path if shown else None
                sections = [urlsplit(u).fragment for u in shown[0][1]] if shown else []
                whole_page = titles.get(page) == item["id"]
                if first != page or (not whole_page and sections[:1] != [item["id"]]):
                    where = f"page {first}" if first != page else f"section #{sections[0] if sections else 'none'}"
                    failing.append(case)
                    known = "known" if case in STILL_FAILING else "NEW"
                    print(f"{known:5} {case}: {item['q']!r} -> {where}, not {page}#{item['id']}")
        browser.close()
    fixed = sorted(STILL_FAILING - set(failing))
    print(f"{len(failing)} failing ({len(set(failing) - STILL_FAILING)} new); passing now of STILL_FAILING: {fixed}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"))
