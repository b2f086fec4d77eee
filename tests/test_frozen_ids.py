"""Every address a reader could have copied still works: each id of tests/frozen_ids.yml (the headings and the
release notes of every page, both languages, as they were on 2026-12-01) is still on its page in the strict build.
Nothing has moved yet; when a section moves to another page, its old id stays at the old place with a link to the new
one, and this test learns to follow that link.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

FROZEN = Path(__file__).with_name("frozen_ids.yml")


class _Ids(HTMLParser):
    """The ids of every element of a page."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(value for name, value in attrs if name == "id")


def page_ids(site_dir: Path, path: str, cache: dict) -> set[str] | None:
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
    """None if `path#anchor` still lands on its content."""
    ids = page_ids(site_dir, path, cache)
    if ids is None:
        return f"the page {path} is gone; keep a page there that links to where its content went"
    if anchor not in ids:
        return f"{path} has no element with id {anchor!r}: keep the id on its heading ({{ #{anchor} }})"
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
