"""Search that understands Russian: a Pagefind index of the built site, one per language.

Pagefind reads `<html lang>` of each page and stems words with the Snowball stemmer of that language,
at index time and at query time, so `производной` finds a page that says "производная" and
`градиентами` finds "градиента". The reader's page loads only the index of its own language (a Russian
query on the Russian site leads to Russian pages), and only when the reader starts a search
(`overrides/assets/javascripts/pagefind-search.js`), so pages stay light and fully offline. The search
box sends Russian words as their Snowball stems (`russian-stem.js` there): with Pagefind 1.5 alone,
some query forms (`производной`) matched only pages that have that exact form.

* `on_post_page` marks each page's article with `data-pagefind-body`: only the article text is indexed
  (not navigation, header or footer), and pages without an article (404) are left out; heading
  permalinks ("¶") are ignored.
* `on_post_build` runs the Pagefind binary (PyPI `pagefind[bin]`) over site_dir once, after
  mkdocs-static-i18n has built every language.
"""

from __future__ import annotations

import subprocess
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

import site_languages

_ARTICLE = '<article class="md-content__inner md-typeset">'


def on_post_page(output, page, config):
    output = output.replace(_ARTICLE, '<article class="md-content__inner md-typeset" data-pagefind-body>', 1)
    # The "¶" permalinks in headings are not words of the page.
    return output.replace('class="headerlink"', 'class="headerlink" data-pagefind-ignore')


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built every language
def on_post_build(config):
    if site_languages.building_nested_language(config):  # the outer build indexes every language
        return
    proc = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", config.site_dir, "--output-subdir", "pagefind", "--quiet"],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise PluginError(f"pagefind failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
