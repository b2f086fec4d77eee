"""MkDocs hook: under every page, "Edit this page" (its own source, in its language) and "Report a problem"
(a new GitHub issue with the page's address filled in). overrides/partials/page-links.html draws them.

* A Markdown page is edited in the file it was built from: ``docs/<page>.ru.md`` for a Russian page, or
  ``docs/<page>.md`` when the Russian twin falls back to the English file.
* A notebook page is built from an executed ``.ipynb`` in ``.cache/``; it is edited in its jupytext source,
  ``docs/notebooks/<name>[.ru].py`` (hooks/notebooks.py records which one on the page's file).
* The edit address is ``repo_url`` + ``edit_uri`` (mkdocs.yml: ``edit/main/docs/``) + the source's path
  under ``docs/``; MkDocs' own ``page.edit_url`` is replaced, since it knows neither case above.

Both are plain links: following one is the reader's choice, the page itself requests nothing from GitHub.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import typography_ru

LABELS = {
    "en": {
        "edit": "Edit this page",
        "report": "Report a problem",
        "title": "Problem on the page “{title}”",
        "body": "Page: {url}\n\nWhat is wrong or unclear (the sentence, code or output, and what you expected):\n\n",
    },
    "ru": {
        "edit": "Редактировать страницу",
        "report": "Сообщить о проблеме",
        "title": "Проблема на странице «{title}»",
        "body": "Страница: {url}\n\nЧто не так или непонятно (фраза, код или вывод, и чего вы ожидали):\n\n",
    },
}


def source_of(page, config) -> Path | None:
    """The file a reader edits to change this page, or None for a generated page."""
    source = getattr(page.file, "notebook_source", None) or page.file.abs_src_path
    if not source:
        return None
    source = Path(source).resolve()
    docs = Path(config.docs_dir).resolve()
    return source if docs in source.parents else None


def edit_url(page, config) -> str | None:
    source = source_of(page, config)
    if source is None or not config.repo_url or not config.edit_uri:
        return None
    path = source.relative_to(Path(config.docs_dir).resolve()).as_posix()
    return config.repo_url.rstrip("/") + "/" + config.edit_uri.strip("/") + "/" + path


def report_url(page, config, locale: str) -> str | None:
    if not config.repo_url:
        return None
    labels = LABELS.get(locale, LABELS["en"])
    title = page.title or config.site_name
    query = urlencode(
        {"title": labels["title"].format(title=title), "body": labels["body"].format(url=page.canonical_url)}
    )
    return f"{config.repo_url.rstrip('/')}/issues/new?{query}"


def on_page_context(context, page, config, nav):
    locale = config.theme.get("language") or "en"  # set per language build by mkdocs-static-i18n
    labels = LABELS.get(locale, LABELS["en"])
    if locale == "ru":  # the links sit in the article: the same Russian typography as its text
        labels = {key: typography_ru.typeset(value) for key, value in labels.items()}
    page.edit_url = edit_url(page, config)
    links = []
    if page.edit_url:
        links.append({"kind": "edit", "label": labels["edit"], "href": page.edit_url})
    report = report_url(page, config, locale)
    if report:
        links.append({"kind": "report", "label": labels["report"], "href": report})
    context["page_links"] = links
    return context
