"""What the hooks need to know about the build's languages.

mkdocs-static-i18n builds the site once per language (English first, into site_dir; Russian into
site_dir/ru) inside the outer build. Without the plugin the site is one English build.
MkDocs puts hooks/ on sys.path while it loads a hook, so a hook imports this as ``import site_languages``.
"""

from __future__ import annotations


def languages(config) -> tuple[str, str, list[str]]:
    """(current, default, every built) locale."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return "en", "en", ["en"]
    built = [lang.locale for lang in i18n.config.languages if lang.build]
    return i18n.current_language, i18n.default_language, built


def building_nested_language(config) -> bool:
    """True inside one language's build; the outer build's ``on_post_build`` runs once all are built."""
    return bool(getattr(config.plugins.get("i18n"), "building", False))
