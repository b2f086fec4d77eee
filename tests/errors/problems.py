"""The mined reader problems (tests/errors/problems.yml) and the page sections that answer them."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

from snippet_includes import INCLUDE  # hooks/snippet_includes.py: {* snippets/<file>.py *}
from tests.harness import ROOT

DATA = ROOT / "tests" / "errors" / "problems.yml"
DOCS = ROOT / "docs"
HEADING = re.compile(r"^(#{1,6})\s+.*\{\s*#([A-Za-z0-9_-]+)[^}]*\}\s*$")
LINK = re.compile(r"\]\((https?://[^)\s]+)\)")


@cache
def problems() -> list[dict]:
    return yaml.safe_load(DATA.read_text(encoding="utf-8"))


def answered() -> list[dict]:
    return [p for p in problems() if p["entry"]]


def with_recipe() -> list[dict]:
    """The problems a cookbook recipe answers (`recipe: cookbook/<page>.md#<anchor>`)."""
    return [p for p in problems() if p.get("recipe")]


def page_path(entry: str, lang: str) -> Path:
    page = entry.split("#")[0]
    return DOCS / (page if lang == "en" else page.removesuffix(".md") + ".ru.md")


def section(entry: str, lang: str) -> list[str] | None:
    """The lines of the entry's section: from its heading to the next heading of the same or a higher level
    (sub-headings stay in). None if the page has no heading with that anchor."""
    anchor = entry.split("#")[1]
    lines = page_path(entry, lang).read_text(encoding="utf-8").splitlines()
    for start, line in enumerate(lines):
        match = HEADING.match(line)
        if match and match[2] == anchor:
            level = len(match[1])
            end = next(
                (i for i in range(start + 1, len(lines)) if (h := HEADING.match(lines[i])) and len(h[1]) <= level),
                len(lines),
            )
            return lines[start:end]
    return None


def included(lines: list[str]) -> set[str]:
    return {m["path"] for line in lines if (m := INCLUDE.match(line))}


def linked(lines: list[str]) -> set[str]:
    return {url for line in lines for url in LINK.findall(line)}
