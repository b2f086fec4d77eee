"""Every page of the built site, in both languages, as a reader's browser (Debian's Chromium) gets it.

Pages are discovered from the build, so new chapters are covered as they land. Each page is visited
once (conftest.py); each test below checks one property on all pages and lists every page that fails.
"""

from __future__ import annotations

import re

from tests.site.siteinfo import LANGUAGES, OTHER_LANGUAGE, markdown_has_math


def _report(failures: list[str], what: str) -> str:
    return f"{len(failures)} page(s) {what}:\n  " + "\n  ".join(failures)


def test_pages_exist_in_both_languages(pages):
    by_lang = {lang: {p.path for p in pages if p.lang == lang} for lang in LANGUAGES}
    missing = [f"/{p.twin} (twin of /{p.path})" for p in pages if p.twin not in by_lang[OTHER_LANGUAGE[p.lang]]]
    assert not missing, _report(missing, "have no page in the other language")


def test_every_page_loads(visits):
    bad = [f"{v.page.name}: HTTP {v.status}" for v in visits.values() if v.status != 200]
    bad += [
        f"{v.page.name}: no article (material's content area) on the page"
        for v in visits.values()
        if not v.facts["hasArticle"]
    ]
    assert not bad, _report(bad, "did not load")


def test_no_request_leaves_the_site(visits):
    bad = [f"{v.page.name}: {url}" for v in visits.values() for url in v.offsite]
    assert not bad, _report(bad, "asked another host for something (the site must work offline)")


def test_no_failed_request(visits):
    bad = [f"{v.page.name}: {what}" for v in visits.values() for what in v.failed]
    assert not bad, _report(bad, "had a failed request (404 or network error)")


def test_no_console_error(visits):
    bad = [f"{v.page.name}: {text}" for v in visits.values() for text in v.console_errors]
    assert not bad, _report(bad, "logged a console error")


def test_html_lang_is_the_page_language(visits):
    bad = [
        f"{v.page.name}: <html lang={v.facts['lang']!r}>, expected {v.page.lang!r}"
        for v in visits.values()
        if v.facts["lang"] != v.page.lang
    ]
    assert not bad, _report(bad, "declare the wrong language")


def test_diagrams_are_drawn_and_described(visits):
    bad = []
    for v in visits.values():
        for img in v.facts["images"]:
            if not img["width"]:
                bad.append(f"{v.page.name}: image not drawn: {img['src']}")
            if not (img["alt"] or "").strip():
                bad.append(f"{v.page.name}: image without alt text: {img['src']}")
        if v.facts["mermaid"]:
            bad.append(f"{v.page.name}: mermaid on the page (diagrams must be SVG files)")
    assert not bad, _report(bad, "have a diagram problem")


# LaTeX left as text: delimiters, common commands, or an inline `$...$` formula.
_RAW_MATH = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\\frac|\\partial|\\sigma|(?<![\\$])\$(?=\S)[^$\n]{1,80}(?<=\S)\$")


def test_formulas_are_drawn(visits):
    bad = []
    for v in visits.values():
        if v.facts["arithmatexWithoutMath"]:
            bad.append(f"{v.page.name}: {v.facts['arithmatexWithoutMath']} formula(s) left as LaTeX source")
        raw = _RAW_MATH.search(v.facts["text"])
        if raw:
            start = max(raw.start() - 40, 0)
            bad.append(f"{v.page.name}: raw LaTeX in the text: …{v.facts['text'][start : raw.end() + 40]!r}…")
        source = v.page.source()
        if source is not None and markdown_has_math(source) and not v.facts["math"]:
            bad.append(f"{v.page.name}: {source.relative_to(source.parents[1])} has formulas, the page shows no <math>")
    assert not bad, _report(bad, "have formulas not drawn")


def test_code_blocks_have_copy_buttons(visits):
    bad = [
        f"{v.page.name}: {v.facts['copyButtons']} copy button(s) for {v.facts['codeBlocks']} code block(s)"
        for v in visits.values()
        if v.facts["copyButtons"] < v.facts["codeBlocks"]
    ]
    assert not bad, _report(bad, "have code blocks without a copy button")


def test_language_switcher_links_to_the_same_page(visits, server):
    bad = []
    for v in visits.values():
        links = {link["lang"]: link["href"] for link in v.facts["switcher"]}
        expected = {v.page.lang: server.url(v.page), OTHER_LANGUAGE[v.page.lang]: server.url(v.page.twin)}
        if links != expected:
            bad.append(f"{v.page.name}: switcher links {links}, expected {expected}")
    assert not bad, _report(bad, "have a language switcher that does not lead to the same page")


def _one_of_each_kind(pages):
    """The landing page, the first chapter and the first notebook, in each language: each kind of page has its
    own switcher markup (material's, the hooks', the notebooks'); every page's switcher *links* are checked above."""
    chosen = {}
    for page in pages:
        kind = "landing" if page.path in ("", "ru/") else "notebook" if "notebooks/" in page.path else "chapter"
        chosen.setdefault((page.lang, kind), page)
    return list(chosen.values())


def test_language_switcher_click_opens_the_twin(browser, server, pages):
    """Through the real UI: open the language menu, choose the other language, land on the twin page."""
    from tests.site.conftest import new_context

    context = new_context(browser, server)
    bad = []
    try:
        tab = context.new_page()
        for page in _one_of_each_kind(pages):
            tab.goto(server.url(page), wait_until="load")
            other = OTHER_LANGUAGE[page.lang]
            tab.hover(".md-header .md-select")
            tab.click(f".md-select__link[hreflang={other}]")
            tab.wait_for_load_state("load")
            if tab.url != server.url(page.twin):
                bad.append(f"{page.name}: choosing {other!r} opened {tab.url}, expected {server.url(page.twin)}")
            elif tab.evaluate("document.documentElement.lang") != other:
                bad.append(
                    f"{page.name}: the {other!r} page opened has <html lang={tab.evaluate('document.documentElement.lang')!r}>"
                )
    finally:
        context.close()
    assert not bad, _report(bad, "switch language to a different page")


# Link texts that say nothing out of context (Lighthouse's SEO audit and screen-reader users flag them).
_VAGUE_LINK_TEXTS = {
    "click here",
    "here",
    "this",
    "link",
    "more",
    "read more",
    "learn more",
    "see more",
    "more info",
    "здесь",
    "тут",
    "ссылка",
    "подробнее",
    "далее",
    "ещё",
    "еще",
    "читать далее",
    "узнать больше",
}


def test_link_texts_say_where_they_lead(visits):
    bad = [
        f"{v.page.name}: a link reads {text!r}"
        for v in visits.values()
        for text in v.facts["links"]
        if text.strip(" .,;:()").lower() in _VAGUE_LINK_TEXTS
    ]
    assert not bad, _report(bad, "have a link whose text does not say where it leads (name the target instead)")
