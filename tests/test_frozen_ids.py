"""Every address a reader could have copied still works: each id of tests/frozen_ids.yml (the headings and the
release notes of every page, both languages, as they were on 2026-12-01) still lands on its content in the strict
build. Either the id is still on its page, or (a section that moved to another page: the symptom groups of the
error index, issue 22) the old page has a visible link with that id whose target is the same id on the new page,
and that target exists and is the content itself, not another link. hooks/errors_index.py makes those links and the
JavaScript redirect; tests/site/test_frozen_addresses.py follows every such address in Chromium, with JavaScript
and without.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

FROZEN = Path(__file__).with_name("frozen_ids.yml")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    href: str | None
    hidden: bool  # it or an element around it has `hidden` or an inline `display: none`


class _Ids(HTMLParser):
    """Every element of a page that has an id."""

    def __init__(self):
        super().__init__()
        self.ids: dict[str, Element] = {}
        self.stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        style = (attrs.get("style") or "").replace(" ", "")
        hidden = (bool(self.stack) and self.stack[-1][1]) or "hidden" in attrs or "display:none" in style
        if attrs.get("id"):
            self.ids.setdefault(attrs["id"], Element(tag, attrs.get("href"), hidden))
        if tag not in VOID:
            self.stack.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break


def page_ids(site_dir: Path, path: str, cache: dict) -> dict[str, Element] | None:
    if path not in cache:
        html = site_dir / path.lstrip("/") / "index.html"
        if not html.is_file():
            cache[path] = None
        else:
            parser = _Ids()
            parser.feed(html.read_text(encoding="utf-8"))
            cache[path] = parser.ids
    return cache[path]


def moved_to(path: str, element: Element) -> tuple[str, str] | None:
    """(new page path, anchor) if the element is a link to another page of the site."""
    if element.tag != "a" or not element.href or element.href.startswith("#"):
        return None
    target = urlsplit(urljoin(path, element.href))
    if target.scheme or target.netloc:
        return None
    return target.path, target.fragment


def frozen() -> list[tuple[str, str]]:
    data = yaml.safe_load(FROZEN.read_text(encoding="utf-8"))
    return [(path, anchor) for path, anchors in data.items() for anchor in anchors]


def where_it_lands(site_dir: Path, path: str, anchor: str, cache: dict) -> str | None:
    """None if `path#anchor` still lands on its content."""
    ids = page_ids(site_dir, path, cache)
    if ids is None:
        return f"the page {path} is gone; keep a page there that links to where its content went"
    if anchor not in ids:
        return f"{path} has no element with id {anchor!r}: keep the id on its heading ({{ #{anchor} }})"
    moved = moved_to(path, ids[anchor])
    if moved is None:
        return None
    new_path, new_anchor = moved
    if ids[anchor].hidden:
        return (
            f"the link with id {anchor!r} to {new_path}#{new_anchor} is hidden: a reader without JavaScript must see it"
        )
    if new_anchor != anchor:
        return f"the link with id {anchor!r} points at {new_path}#{new_anchor}: a moved section keeps its id"
    there = page_ids(site_dir, new_path, cache)
    if there is None or anchor not in there:
        return f"the link with id {anchor!r} points at {new_path}#{anchor}, which does not exist"
    if moved_to(new_path, there[anchor]) is not None:
        return f"{new_path}#{anchor} is a link again, not the content: link {path} straight to where it is"
    return None


def test_the_frozen_list_is_whole():
    data = yaml.safe_load(FROZEN.read_text(encoding="utf-8"))
    assert len(data) >= 28 and all(path.startswith("/") and path.endswith("/") for path in data), (
        f"{FROZEN.name} lists {len(data)} pages; it is frozen test data: restore it from git, never edit it"
    )
    assert all(re.fullmatch(r"[a-z0-9_-]+", a) for _, a in frozen()), f"{FROZEN.name}: an id is malformed"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_frozen_id_still_lands_on_its_content(built_site, lang):
    assert built_site.returncode == 0, built_site.log
    cache: dict = {}
    problems = [
        f"{path}#{anchor}: {problem}"
        for path, anchor in frozen()
        if path.startswith("/ru/") == (lang == "ru")
        and (problem := where_it_lands(built_site.site_dir, path, anchor, cache))
    ]
    assert not problems, f"{len(problems)} old address(es) no longer land on their content:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_redirect_of_the_error_index_follows_its_links(built_site, lang):
    """With JavaScript, errors/#<id> goes where the page's link with that id goes (hooks/errors_index.py's map)."""
    assert built_site.returncode == 0, built_site.log
    path = "/ru/errors/" if lang == "ru" else "/errors/"
    html = (built_site.site_dir / path.lstrip("/") / "index.html").read_text(encoding="utf-8")
    script = re.search(r"<script>\(function\(\)\{var m=(\{.*?\});", html)
    assert script, f"{path} has no redirect script in its <head>: hooks/errors_index.py (on_post_page) adds it"
    redirects = json.loads(script[1])
    cache: dict = {}
    links = {
        anchor: f"{new_path}#{new_anchor}"
        for anchor, element in page_ids(built_site.site_dir, path, cache).items()
        if (moved := moved_to(path, element)) and (new_path := moved[0]) and (new_anchor := moved[1]) is not None
    }
    resolved = {anchor: urljoin(path, to) for anchor, to in redirects.items()}
    assert resolved == links, (
        f"{path}: the redirect map and the page's links disagree: "
        f"{sorted(set(resolved.items()) ^ set(links.items()))[:10]}"
    )
