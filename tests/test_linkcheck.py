"""`make linkcheck` (tools/linkcheck.py), offline: the list of external links it would check is complete and
well formed, each link is checked through what it stands for, and the checker tells a dead link from a live
one (against a server on 127.0.0.1). The real check needs the network: a weekly workflow runs it."""

from __future__ import annotations

import http.server
import re
import threading
from urllib.parse import urlsplit

import pytest

from tests.harness import ROOT
from tools import linkcheck

NOTEBOOKS = sorted({p.name.split(".")[0] for p in (ROOT / "docs" / "notebooks").glob("*.py")})


@pytest.fixture(scope="module")
def links(built_site) -> dict[str, list[str]]:
    assert built_site.returncode == 0, "the strict build failed (see test_build.py)"
    return linkcheck.external_links(built_site.site_dir)


def test_every_external_link_of_the_site_is_listed(built_site, links):
    raw = set()
    for page in linkcheck.pages(built_site.site_dir):
        for href in re.findall(r'<a\b[^>]*?\bhref="(https?://[^"#]+)', page.read_text(encoding="utf-8")):
            if urlsplit(href).netloc not in linkcheck.SITE_HOSTS:
                raw.add(href.replace("&amp;", "&"))
    assert raw, "the built site has no external link at all: the page scan is broken"
    missing = sorted(raw - set(links))
    assert not missing, f"external links on the site that linkcheck would not check: {missing[:10]}"


def test_listed_links_are_well_formed_and_name_their_pages(links):
    assert len(links) > 20, (
        f"only {len(links)} external links found; expected the licence, edit, report and Colab links at least"
    )
    bad = []
    for url, where in links.items():
        parts = urlsplit(url)
        if parts.scheme != "https" or "." not in parts.netloc or re.search(r"\s", url) or parts.fragment:
            bad.append(f"{url} (on {where[0]})")
        if not where:
            bad.append(f"{url}: on no page")
    assert not bad, "malformed external links (https, a host, no spaces or fragments):\n  " + "\n  ".join(bad)


def test_the_list_holds_licences_colab_edit_and_report_links(links):
    urls = set(links)
    for licence in ("https://www.apache.org/licenses/LICENSE-2.0", "https://creativecommons.org/licenses/by/4.0/"):
        assert licence in urls, f"the footer's licence link {licence} is not in the list"
    colab = {u for u in urls if u.startswith("https://colab.research.google.com/")}
    assert len(colab) == 2 * len(NOTEBOOKS), f"expected one Colab link per notebook and language, found {sorted(colab)}"
    assert any("/edit/main/docs/" in u for u in urls) and any("/issues/new?" in u for u in urls)


def test_links_that_always_answer_are_checked_through_what_they_stand_for(links):
    colab = next(u for u in links if u.startswith("https://colab.research.google.com/github/"))
    assert linkcheck.target(colab).startswith("https://github.com/") and "/blob/gh-pages/" in linkcheck.target(colab)
    edit = next(u for u in links if "/edit/main/" in u)
    assert linkcheck.target(edit) == edit.replace("/edit/main/", "/blob/main/")
    report = next(u for u in links if "/issues/new?" in u)
    assert linkcheck.target(report) == report.split("/issues/new")[0]
    plain = "https://www.apache.org/licenses/LICENSE-2.0"
    assert linkcheck.target(plain) == plain


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self):  # noqa: N802 - http.server's naming
        self.send_response({"/live": 200, "/gone": 404, "/moved": 301, "/no-head": 405}.get(self.path, 404))
        if self.path == "/moved":
            self.send_header("Location", "/live")
        self.end_headers()

    def do_GET(self):  # noqa: N802
        self.send_response(200 if self.path in ("/live", "/no-head") else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_the_checker_tells_dead_links_from_live_ones():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        links = {f"{base}/{name}": ["index.html"] for name in ("live", "gone", "moved", "no-head")}
        broken = linkcheck.check(links, jobs=2)
    finally:
        server.shutdown()
    assert broken == {f"{base}/gone": "HTTP 404"}, f"the checker reported {broken}"
