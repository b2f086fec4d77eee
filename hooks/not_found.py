"""A 404 page in each language, served correctly under a sub-path (GitHub Pages project sites).

* mkdocs-static-i18n builds the languages one after the other into one site_dir, and each build writes
  ``404.html`` at the root: the last language (Russian) won. This hook keeps the default language's page at
  ``/404.html`` (the one GitHub Pages serves for any missing path) and moves each other language's to
  ``/<lang>/404.html``. Both pages carry a short note in the other language too (overrides/404.html), since
  a reader who mistyped a Russian URL still lands on ``/404.html``.
* A 404 page is served at any depth, so its links must be absolute: MkDocs gives it ``base_url`` = the path
  of ``site_url``. Its language switcher, though, kept the alternates of the last page rendered; here it
  points at each language's home page instead.
"""

from __future__ import annotations

import copy
from pathlib import Path
from urllib.parse import urlsplit

import site_languages

_default_page: dict[str, bytes] = {}


def on_template_context(context, template_name, config):
    if template_name != "404.html":
        return context
    i18n = config.plugins.get("i18n")
    alternates = copy.deepcopy(getattr(i18n, "extra_alternate", None) or config.extra.get("alternate") or [])
    base = urlsplit(config.site_url or "/").path.rstrip("/") + "/"
    _, default = site_languages.languages(config)[:2]
    for alternate in alternates:
        lang = alternate.get("lang")
        alternate["link"] = base if lang == default else f"{base}{lang}/"
    if alternates:
        # mkdocs-static-i18n sets it both as an item and as an attribute (jinja reads the attribute)
        config.extra["alternate"] = alternates
        config.extra.alternate = copy.deepcopy(alternates)
    return context


def on_post_build(config) -> None:
    current, default = site_languages.languages(config)[:2]
    site = Path(config.site_dir)
    page = site / "404.html"
    if not page.exists():
        return
    if current == default:
        _default_page["html"] = page.read_bytes()
    else:
        target = site / current / "404.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page.read_bytes())
        if "html" in _default_page:
            page.write_bytes(_default_page["html"])
