"""Pages that paint sooner on a slow phone: material's script bundle and the lightbox's script are loaded with
`defer`, and pages without a diagram get no lightbox at all.

Material puts `<script src=".../bundle.<hash>.min.js">` at the end of `<body>` without `defer`; the
parser still stops for it before the page is complete, and Lighthouse counts it as render-blocking.
With `defer` it runs at the same point of the page's life (after parsing, before DOMContentLoaded),
so nothing changes for the reader but the time to first paint. The inline scripts material writes
into the page do not depend on the bundle.

mkdocs-glightbox (pinned in pyproject.toml: this hook matches the tags its version writes) puts its script in
`<head>` without `defer` and starts the lightbox in an inline script at the end of `<body>` that also needs
material's bundle (`document$`). Its script is deferred here and the start waits for DOMContentLoaded, which
comes after every deferred script. On a page without a lightbox link (no diagram) its stylesheet, style and
scripts are removed: 70 KB less to fetch.

Each page also gets its own `<meta name="description">`: the first paragraph of its article (plain text, cut at a
word before 160 characters), unless the page's front matter sets one; the site's description stays the
fallback. A search engine then shows the page's own first words under its title.
"""

from __future__ import annotations

import html
import re

_BUNDLE = re.compile(r'<script src="(?P<src>[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>')


_LIGHTBOX_SCRIPT = re.compile(r'<script src="(?P<src>[^"]*assets/javascripts/glightbox\.min\.js)"></script>')
_LIGHTBOX_START = re.compile(r'<script id="init-glightbox">(?P<code>.*?)</script>', re.DOTALL)
_LIGHTBOX_STYLES = (
    re.compile(r'<link href="[^"]*assets/stylesheets/glightbox\.min\.css" rel="stylesheet">'),
    re.compile(r'<style id="glightbox-style">.*?</style>', re.DOTALL),
)


def _lightbox(output: str) -> str:
    if 'class="glightbox"' not in output:
        for tag in (_LIGHTBOX_SCRIPT, _LIGHTBOX_START, *_LIGHTBOX_STYLES):
            output = tag.sub("", output, count=1)
        return output
    output = _LIGHTBOX_SCRIPT.sub(lambda m: f'<script src="{m["src"]}" defer></script>', output, count=1)
    return _LIGHTBOX_START.sub(
        lambda m: (
            f'<script id="init-glightbox">document.addEventListener("DOMContentLoaded", () => {{\n{m["code"]}}});</script>'
        ),
        output,
        count=1,
    )


_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_DESCRIPTION_CHARS = 160


def _first_paragraph(content: str) -> str:
    for match in _PARAGRAPH.finditer(content):
        text = " ".join(html.unescape(_TAG.sub("", match[1])).split())
        if len(text) >= 40:
            if len(text) > _DESCRIPTION_CHARS:
                text = text[: _DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
            return text
    return ""


def on_page_content(content, page, config, files):
    if not page.meta.get("description"):
        text = _first_paragraph(content)
        if text:
            page.meta["description"] = text
    return content


def on_post_page(output, page, config):
    output = _BUNDLE.sub(lambda m: f'<script src="{m["src"]}" defer></script>', output, count=1)
    return _lightbox(output)
