"""Every address a reader could have copied still works: each id of tests/frozen_ids.yml (the headings and the
release notes of every page, both languages, as they were on 2026-12-01) is still on its page in the strict build.

Where an entry has moved to another page, the old page keeps the old id on a link to the new place
(`<a class="moved" href="new/#id" id="id">`): a reader without JavaScript lands on that link, and the page's script
follows it (tests/site/test_moved_ids.py). The link must lead to a page that has the id.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

FROZEN = Path(__file__).with_name("frozen_ids.yml")


class _Ids(HTMLParser):
    """id -> (tag, attributes) of every element of a page."""

    def __init__(self):
        super().__init__()
        self.ids: dict[str, tuple[str, dict]] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.setdefault(attributes["id"], (tag, attributes))


def page_ids(site_dir: Path, path: str, cache: dict) -> dict[str, tuple[str, dict]] | None:
    if path not in cache:
        html = site_dir / path.lstrip("/") / "index.html"
        if not html.is_file():
            cache[path] = None
        else:
            parser = _Ids()
            parser.feed(html.read_text(encoding="utf-8"))
            cache[path] = parser.ids
    return cache[path]


def frozen() -> list[tuple[str, str]]:
    data = yaml.safe_load(FROZEN.read_text(encoding="utf-8"))
    return [(path, anchor) for path, anchors in data.items() for anchor in anchors]


def where_it_lands(site_dir: Path, path: str, anchor: str, cache: dict) -> str | None:
    """None if `path#anchor` lands on its content (the id itself, or a moved-link to a page that has it)."""
    ids = page_ids(site_dir, path, cache)
    if ids is None:
        return f"the page {path} is gone; keep a page there that links to where its content went"
    if anchor not in ids:
        return (
            f"{path} has no element with id {anchor!r}: keep the id on its heading ({{ #{anchor} }}), or, if the "
            f"content moved, on a link to its new place at the old place: [..](new.md#{anchor}){{ #{anchor} .moved }}"
        )
    tag, attributes = ids[anchor]
    if "moved" not in attributes.get("class", "").split():
        return None
    target = urlsplit(urljoin(path, attributes.get("href", "")))
    new_ids = page_ids(site_dir, target.path, cache)
    if new_ids is None or target.fragment not in new_ids:
        return f"{path}#{anchor} is a moved-link to {target.path}#{target.fragment}, which does not exist"
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
