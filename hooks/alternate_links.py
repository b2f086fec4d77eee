"""Language alternates that are absolute for search engines, and no stray sitemap requests.

* mkdocs-static-i18n gives every page `<link rel="alternate" hreflang=.. href=..>` to the same page in each
  language, but relative; search engines (and Lighthouse's SEO audit) want absolute URLs. They are made
  absolute against the page's canonical URL (`site_url`). The visible language switcher gets relative
  links (on the landing pages the plugin writes root-absolute paths such as `/<site path>/ru/`), so it
  works wherever the site is served, also from a copy on a laptop.
* Material's bundle fetches `sitemap.xml` next to every `link[rel=alternate]` to map pages between
  languages. Next to a page (`/ru/foo/sitemap.xml`) there is none: a 404 and a console error on every
  page, or a request to another host once the links are absolute. The i18n plugin already points the
  switcher at the same page in the other language, so that lookup is not needed: the bundle is told to
  look only at `link[rel=alternate][data-md-sitemap]` (no such element exists). Material is pinned
  (requirements.lock); if its bundle changes shape the build fails here instead of the site breaking.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

import site_languages

_ALTERNATE = re.compile(r'<link rel="alternate" href="(?P<href>[^"]*)" hreflang="(?P<lang>[^"]*)">')
_SWITCHER = re.compile(r'<a href="(?P<href>[^"]*)" hreflang="(?P<lang>[^"]*)" class="md-select__link">')
_BUNDLE_SELECTOR = '"link[rel=alternate]"'
_PATCHED_SELECTOR = '"link[rel=alternate][data-md-sitemap]"'


def on_post_page(output, page, config):
    base = page.canonical_url
    if not base:
        return output

    def absolute(match: re.Match) -> str:
        href = urljoin(base, match["href"])
        return f'<link rel="alternate" href="{href}" hreflang="{match["lang"]}">'

    def relative(match: re.Match) -> str:
        href = match["href"]
        if href.startswith("/"):  # the landing pages get root-absolute paths ("/<site path>/ru/")
            here = urlsplit(base).path
            href = posixpath.relpath(href, here if here.endswith("/") else posixpath.dirname(here)) + "/"
        return f'<a href="{href}" hreflang="{match["lang"]}" class="md-select__link">'

    output = _ALTERNATE.sub(absolute, output)
    return _SWITCHER.sub(relative, output)


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built every language
def on_post_build(config):
    if site_languages.building_nested_language(config):
        return
    bundles = sorted(Path(config.site_dir, "assets", "javascripts").glob("bundle.*.min.js"))
    if not bundles:
        raise PluginError("alternate_links hook: material's bundle.*.min.js not found in site_dir")
    for bundle in bundles:
        text = bundle.read_text(encoding="utf-8")
        if _PATCHED_SELECTOR in text:
            continue
        if text.count(_BUNDLE_SELECTOR) != 1:
            raise PluginError(
                f"alternate_links hook: expected one {_BUNDLE_SELECTOR} in {bundle.name} "
                "(mkdocs-material changed?); the language switcher would fetch sitemap.xml next to every page"
            )
        bundle.write_text(text.replace(_BUNDLE_SELECTOR, _PATCHED_SELECTOR), encoding="utf-8")
