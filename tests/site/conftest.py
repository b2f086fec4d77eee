"""The browser suite: the strict build served on 127.0.0.1, one Debian Chromium for the session, and one
visit per page in both languages that records everything the tests then check."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest

from tests.site.siteinfo import Page, SiteServer, discover_pages, launch_chromium, wait_until_settled

# Facts read from the rendered page (after its scripts ran), in one evaluate() call.
_FACTS_JS = """
async () => {
  const article = document.querySelector("article.md-content__inner");
  // Lazy images load now, so each one can be checked.
  const images = [...(article ? article.querySelectorAll("img") : [])];
  images.forEach((img) => { img.loading = "eager"; });
  await Promise.all(images.map((img) => img.complete ? null : new Promise((done) => {
    img.addEventListener("load", done, { once: true });
    img.addEventListener("error", done, { once: true });
    setTimeout(done, 5000);
  })));
  const codeBlocks = [...(article ? article.querySelectorAll("pre") : [])].filter((pre) => !pre.closest(".jp-OutputArea"));
  let text = "";
  if (article) {
    const copy = article.cloneNode(true);
    copy.querySelectorAll("pre, code, math, script, style").forEach((n) => n.remove());
    text = copy.textContent;
  }
  return {
    lang: document.documentElement.getAttribute("lang"),
    title: document.title,
    hasArticle: !!article,
    text,
    math: article ? article.querySelectorAll("math").length : 0,
    arithmatexWithoutMath: article ? [...article.querySelectorAll(".arithmatex")].filter((n) => !n.querySelector("math")).length : 0,
    images: images.map((img) => ({ src: img.currentSrc || img.src, width: img.naturalWidth, alt: img.getAttribute("alt") })),
    // Code blocks: every <pre> of the article except a notebook cell's output. A copy button is material's
    // (in the <pre>) or, on notebook pages, mkdocs-jupyter's <clipboard-copy> in the same cell.
    codeBlocks: codeBlocks.length,
    copyButtons: codeBlocks.filter((pre) => pre.querySelector("button.md-code__button[data-md-type=copy]")
      || (customElements.get("clipboard-copy") && pre.closest(".jp-Cell")?.querySelector("clipboard-copy"))).length,
    links: article ? [...article.querySelectorAll("a[href]")].map((a) => a.textContent.trim()) : [],
    switcher: [...document.querySelectorAll(".md-select__link[hreflang]")].map((a) => ({ lang: a.getAttribute("hreflang"), href: a.href })),
    mermaid: document.querySelectorAll(".mermaid, pre.mermaid, [class*=mermaid] svg").length,
    fonts: performance.getEntriesByType("resource").map((e) => e.name).filter((url) => /\\.woff2?$/.test(url)),
    fontsLoaded: [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replace(/"/g, "")),
    // Edit/report links under the page, notebook buttons (Colab, download), the footer's licence links.
    pageLinks: [...document.querySelectorAll(".page-links a")].map((a) => ({ kind: a.className, href: a.href, text: a.textContent.replace(/\u00a0/g, " ").trim() })),
    notebookButtons: [...document.querySelectorAll(".notebook-actions a")].map((a) => ({ href: a.href, text: a.textContent.replace(/\u00a0/g, " ").trim(), download: a.hasAttribute("download") })),
    footerLinks: [...document.querySelectorAll(".md-copyright__highlight a")].map((a) => ({ href: a.href, text: a.textContent.replace(/\u00a0/g, " ").trim() })),
    footerText: document.querySelector(".md-copyright__highlight")?.textContent.trim() || "",
  };
}
"""


@dataclass
class Visit:
    page: Page
    url: str
    status: int | None = None
    offsite: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    facts: dict = field(default_factory=dict)


@pytest.fixture(scope="session")
def site(built_site):
    if built_site.returncode != 0:
        pytest.fail(
            "The strict build failed (see test_build.py); the browser suite needs the site.\n" + built_site.log[-3000:]
        )
    return built_site.site_dir


@pytest.fixture(scope="session")
def pages(site) -> list[Page]:
    found = discover_pages(site)
    assert any(p.path == "" for p in found) and any(p.path == "ru/" for p in found), (
        f"page discovery found no landing page in {site}: {[p.name for p in found]}"
    )
    return found


@pytest.fixture(scope="session")
def server(site):
    with SiteServer(site) as srv:
        yield srv


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


def new_context(browser, server, **kwargs):
    """A browser context in which nothing may leave the site's host: other hosts are refused (and
    recorded by the visits)."""
    context = browser.new_context(**kwargs)
    host = urlsplit(server.base).netloc

    def route(route):
        if urlsplit(route.request.url).netloc == host or route.request.url.startswith("data:"):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", route)
    return context


def start_visit(context, server, page: Page):
    """Open a tab on the page and return as soon as navigation has committed; `finish_visit` waits for it.
    Splitting the two lets several tabs sit out their network-idle wait at the same time."""
    record = Visit(page, server.url(page))
    host = urlsplit(server.base).netloc
    tab = context.new_page()

    def on_request(request):
        if not request.url.startswith(("data:", "blob:")) and urlsplit(request.url).netloc != host:
            record.offsite.append(request.url)

    def on_response(response):
        if response.status >= 400:
            record.failed.append(f"{response.status} {response.url}")

    tab.on("request", on_request)
    tab.on("response", on_response)
    tab.on("requestfailed", lambda r: record.failed.append(f"{r.failure} {r.url}"))
    tab.on("console", lambda m: record.console_errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: record.console_errors.append(f"uncaught: {e}"))
    response = tab.goto(record.url, wait_until="commit")
    record.status = response.status if response else None
    return record, tab


def finish_visit(record: Visit, tab) -> Visit:
    wait_until_settled(tab)
    record.facts = tab.evaluate(_FACTS_JS)
    tab.close()
    return record


TABS_AT_ONCE = 6


@pytest.fixture(scope="session")
def visits(browser, server, pages) -> dict[str, Visit]:
    """Every page in both languages, visited once (the checks below read these records)."""
    context = new_context(browser, server)
    records = {}
    try:
        for i in range(0, len(pages), TABS_AT_ONCE):
            started = [start_visit(context, server, p) for p in pages[i : i + TABS_AT_ONCE]]
            for record, tab in started:
                records[record.page.path] = finish_visit(record, tab)
        return records
    finally:
        context.close()
