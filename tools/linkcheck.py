"""Check every external link of the built site: what ``make linkcheck`` runs (after a strict build into site/).

    python -m tools.linkcheck site            # check; exit 1 and list each dead link with the pages it is on
    python -m tools.linkcheck site --list     # only print the links that would be checked (no network)

An external link is an ``<a href="http(s)://...">`` to another host, on any page of the site (assets and the
search bundle excluded). Some links are checked through what they stand for, because the link itself answers
200 whatever it points at:

* "Open in Colab" (colab.research.google.com/github/<owner>/<repo>/blob/<branch>/<path>): Colab's page
  always loads; the notebook it opens is the file on GitHub, so that file is fetched;
* "Edit this page" (github.com/<owner>/<repo>/edit/<branch>/<path>) sends a reader who is not signed in to
  the sign-in page; the file itself (``/blob/``) is fetched;
* "Report a problem" (github.com/<owner>/<repo>/issues/new?...) likewise; the repository is fetched.

This needs the network, so it is not part of ``make test``; tests/test_linkcheck.py checks the list offline
and checks the checker against a local server. A weekly workflow (.github/workflows/linkcheck.yml) runs it.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import re
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SKIP_DIRS = {"assets", "pagefind", "search"}
SITE_HOSTS = {"custom-gradients-faq.github.io"}  # the site itself (site_url's host): checked by the tests
USER_AGENT = "Mozilla/5.0 (compatible; custom-gradients-faq linkcheck; +https://github.com/custom-gradients-faq/custom-gradients-faq)"
TIMEOUT_SECONDS = 20
ATTEMPTS = 3  # a 429 or 5xx answer, or a network error, is tried again after a pause


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href.strip())


def pages(site_dir: Path) -> list[Path]:
    return sorted(p for p in Path(site_dir).rglob("*.html") if p.relative_to(site_dir).parts[0] not in SKIP_DIRS)


def external_links(site_dir: Path) -> dict[str, list[str]]:
    """``{url: [page, ...]}`` for every link to another host, fragments dropped (one fetch per document)."""
    found: dict[str, list[str]] = {}
    for page in pages(site_dir):
        parser = _Anchors()
        parser.feed(page.read_text(encoding="utf-8"))
        rel = page.relative_to(site_dir).as_posix()
        for href in parser.hrefs:
            parts = urlsplit(href)
            if parts.scheme not in ("http", "https") or parts.netloc in SITE_HOSTS:
                continue
            url = urlunsplit(parts._replace(fragment=""))
            found.setdefault(url, [])
            if rel not in found[url]:
                found[url].append(rel)
    return dict(sorted(found.items()))


_COLAB = re.compile(r"^https://colab\.research\.google\.com/github/([^/]+/[^/]+)/blob/(.+)$")
_GITHUB_EDIT = re.compile(r"^https://github\.com/([^/]+/[^/]+)/edit/(.+)$")
_GITHUB_NEW_ISSUE = re.compile(r"^https://github\.com/([^/]+/[^/]+)/issues/new(?:\?.*)?$")


def target(url: str) -> str:
    """What to fetch to know whether ``url`` works (see the module docstring)."""
    if match := _COLAB.match(url):
        return f"https://github.com/{match.group(1)}/blob/{match.group(2)}"
    if match := _GITHUB_EDIT.match(url):
        return f"https://github.com/{match.group(1)}/blob/{match.group(2)}"
    if match := _GITHUB_NEW_ISSUE.match(url):
        return f"https://github.com/{match.group(1)}"
    return url


def fetch(url: str) -> str | None:
    """None if ``url`` answers (after redirects) with a success; otherwise what went wrong."""
    problem = None
    for attempt in range(ATTEMPTS):
        for method in ("HEAD", "GET"):  # some servers refuse HEAD (405/403/404) but serve GET
            request = urllib.request.Request(url, method=method, headers={"User-Agent": USER_AGENT, "Accept": "*/*"})
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                    if response.status < 400:
                        return None
                    problem = f"HTTP {response.status}"
            except urllib.error.HTTPError as exc:
                problem = f"HTTP {exc.code}"
                if method == "HEAD":
                    continue
                if exc.code != 429 and exc.code < 500:
                    return problem
            except (urllib.error.URLError, TimeoutError, OSError) as exc:
                problem = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
            break
        time.sleep(2 * (attempt + 1))
    return problem


def check(links: dict[str, list[str]], jobs: int = 8) -> dict[str, str]:
    """``{url: problem}`` for every link that does not work (each target fetched once)."""
    targets = sorted({target(url) for url in links})
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        problems = dict(zip(targets, pool.map(fetch, targets)))
    return {url: problems[target(url)] for url in links if problems[target(url)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path, help="the built site (make build writes site/)")
    parser.add_argument("--list", action="store_true", help="print the links and what is fetched for each; no network")
    args = parser.parse_args(argv)
    links = external_links(args.site)
    if not links:
        print(f"linkcheck: no external link found in {args.site}; is it a built site?", file=sys.stderr)
        return 1
    if args.list:
        for url, where in links.items():
            via = target(url)
            print(url + (f"  (checked as {via})" if via != url else "") + f"  [{len(where)} page(s)]")
        return 0
    print(f"linkcheck: {len(links)} external links ({len({target(u) for u in links})} to fetch)", flush=True)
    broken = check(links)
    for url, problem in broken.items():
        pages_ = links[url]
        shown = ", ".join(pages_[:5]) + (f" and {len(pages_) - 5} more" if len(pages_) > 5 else "")
        via = target(url)
        print(f"DEAD {problem}: {url}" + (f" (checked as {via})" if via != url else "") + f"\n     on {shown}")
    if broken:
        print(
            f"linkcheck: {len(broken)} of {len(links)} external links do not work; fix or remove them in the pages above"
        )
        return 1
    print(f"linkcheck: all {len(links)} external links work")
    return 0


if __name__ == "__main__":
    sys.exit(main())
