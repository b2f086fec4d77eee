"""A reader who pastes TensorFlow's error message into the search box lands on its entry in the error index.

The queries are the real messages, read from the kept outputs of snippets/errors/ (what TensorFlow printed),
on the English and the Russian site. The entry's page of the error index (docs/errors/<group>.md) must be among the
results and, under it, the entry's section must be the first one shown (the symptom group's table may come first).

The second test does the same for every answered problem of tests/errors/problems.yml, with the words a reader
types (`search: {en, ru}`): an error text or the symptom in the page's language; a list where a reader may come
with either of two texts (an old report's words, and what TensorFlow says today).

The third does it for every problem a cookbook recipe answers and no symptom entry does (`recipe:`, `entry: null`):
its words put the recipe's page first of all the pages shown, and the recipe first under it (the recipe's own
heading or one of its parts: problem, why, recipe, proof, alternatives, sources). A problem with both an entry and a
recipe lands on the entry, which links the recipe; its recipe has queries of its own in search_queries.yml.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.errors.problems import HEADING, answered, section, with_recipe
from tests.harness import ROOT
from tests.site.conftest import new_context
from tests.site.search_box import search

ERRORS = ROOT / "docs" / "errors"

# Sections that list symptoms rather than answer one: a query may show them before the entry.
INDEX_SECTIONS = {
    "which-entry",
    "symptom-error-message",
    "symptom-none",
    "symptom-nan-inf",
    "symptom-zero-or-wrong",
    "symptom-not-used",
    "symptom-second-derivative",
    "symptom-only-in",
    "symptom-no-longer",
}

# (kept output, line prefix to take the message from, the entry's anchor on its page under docs/errors/)
MESSAGES = [
    ("01_wrong_number_of_gradients_eager.out", "ValueError: ", "expected-to-return-n-gradients"),
    ("02_wrong_number_of_gradients_tf_function.out", "too_few: InternalError: ", "returned-too-few-gradients"),
    ("04_variables_without_argument.out", "TypeError: ", "must-accept-variables"),
    ("07_no_gradients_provided.out", "ValueError: ", "no-gradients-provided"),
    (
        "09_savedmodel_without_custom_gradients.out",
        " experimental_custom_gradients=False: LookupError: ",
        "savedmodel-no-gradient-defined",
    ),
    (
        "09_savedmodel_without_custom_gradients.out",
        "WARNING logged by tf.saved_model.load: ",
        "savedmodel-no-gradient-defined",
    ),
    ("16_numpy_in_grad_tf_function.out", "tf.function: AttributeError: ", "symbolictensor-numpy"),
    ("17_keyword_arguments.out", "tf.function: ValueError: ", "keyword-arguments"),
    ("30_python_float_around_tf_function.out", "alone      -> AttributeError: ", "assertion-error-python-float"),
    ("31_wrong_dtype_or_shape_around_tf_function.out", "used_twice -> TypeError: ", "addn-dtype-or-shape"),
    ("31_wrong_dtype_or_shape_around_tf_function.out", "used_twice -> ValueError: ", "addn-dtype-or-shape"),
    ("31_wrong_dtype_or_shape_around_tf_function.out", "alone      -> ValueError: ", "addn-dtype-or-shape"),
]


def message(out_name: str, prefix: str) -> str:
    path = ROOT / "snippets" / "errors" / out_name
    for line in path.read_text().splitlines():
        if line.strip().startswith(prefix.strip()):
            text = line.strip()[len(prefix.strip()) :].strip()
            return text.split(": [<")[0]  # drop a printed variable list, as a reader would paste the message
    pytest.fail(f"{path.relative_to(ROOT)}: no line starts with {prefix!r}; update MESSAGES in {Path(__file__).name}")


def entry_page(anchor: str) -> str:
    """The site path of the symptom group page whose heading has the id: "errors/none/" for docs/errors/none.md."""
    for source in sorted(ERRORS.glob("*.md")):
        if not source.name.endswith(".ru.md") and f"{{ #{anchor} }}" in source.read_text(encoding="utf-8"):
            return "errors/" + source.stem + "/"
    pytest.fail(f"no page under {ERRORS.relative_to(ROOT)} has a heading {{ #{anchor} }}; update MESSAGES")


@pytest.fixture(scope="module")
def tabs(browser, server):
    """One tab per language, each staying on its site's landing page from one query to the next (the tests
    alternate between the languages)."""
    context = new_context(browser, server)
    yield {lang: context.new_page() for lang in ("en", "ru")}
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("out_name", "prefix", "anchor"), MESSAGES, ids=[f"{m[0][:2]}-{m[2]}" for m in MESSAGES])
def test_pasted_message_lands_on_its_entry(tabs, server, lang, out_name, prefix, anchor):
    query = message(out_name, prefix)
    start = "ru/" if lang == "ru" else ""
    page = "/" + start + entry_page(anchor)
    shown = search(tabs[lang], server, start, query)
    sections = dict(shown).get(page)
    assert sections is not None, f"searching the {lang} site for {query!r} did not show {page}; shown: {shown}"
    first = [s for s in sections if s not in INDEX_SECTIONS][:1]
    assert first == [anchor], (
        f"searching the {lang} site for {query!r}: the first entry shown under {page} is {first}, "
        f"not #{anchor} (sections shown: {sections})"
    )


ANSWERED = answered()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("problem", ANSWERED, ids=[p["id"] for p in ANSWERED])
def test_symptom_words_land_on_the_entry(tabs, server, lang, problem):
    queries = problem["search"][lang]  # one query, or a list (an old report's words and today's message)
    for query in [queries] if isinstance(queries, str) else queries:
        symptom_words_land_on_the_entry(tabs[lang], server, lang, problem, query)


def symptom_words_land_on_the_entry(tab, server, lang, problem, query):
    page_md, anchor = problem["entry"].split("#")
    page = ("/ru/" if lang == "ru" else "/") + page_md.removesuffix(".md") + "/"
    shown = search(tab, server, "ru/" if lang == "ru" else "", query)
    sections = [s for path, sections in shown if path == page for s in sections]
    assert any(path == page for path, _ in shown), (
        f"searching the {lang} site for {query!r} (tests/errors/problems.yml: {problem['id']}) did not show {page}; "
        f"shown: {shown}"
    )
    first = [s for s in sections if s not in INDEX_SECTIONS][:1]
    assert first == [anchor], (
        f"searching the {lang} site for {query!r} (tests/errors/problems.yml: {problem['id']}): the first entry "
        f"shown under {page} is {first}, not #{anchor} (sections shown: {sections}); change the query in the data "
        "to the words a reader would type, or the entry's wording"
    )


RECIPE_ONLY = [p for p in with_recipe() if not p["entry"]]


def recipe_sections(recipe: str, lang: str) -> set[str]:
    """The ids of the recipe's heading and of the headings inside its section (its six parts)."""
    lines = section(recipe, lang) or []
    return {m[2] for line in lines if (m := HEADING.match(line))}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("problem", RECIPE_ONLY, ids=[p["id"] for p in RECIPE_ONLY])
def test_recipe_words_land_on_the_recipe(tabs, server, lang, problem):
    page_md, anchor = problem["recipe"].split("#")
    page = ("/ru/" if lang == "ru" else "/") + page_md.removesuffix(".md") + "/"
    own = recipe_sections(problem["recipe"], lang)
    assert anchor in own, f"tests/errors/problems.yml: {problem['id']}: {problem['recipe']} has no such heading"
    queries = problem["search"][lang]
    for query in [queries] if isinstance(queries, str) else queries:
        shown = search(tabs[lang], server, "ru/" if lang == "ru" else "", query)
        where = f"searching the {lang} site for {query!r} (tests/errors/problems.yml: {problem['id']})"
        first_page, first_sections = shown[0] if shown else (None, [])
        assert first_page == page, (
            f"{where}: the first page shown is {first_page}, not the recipe's page {page}; shown: {shown[:3]}. "
            "Change the page's weights or the ranking (hooks/pagefind_index.py, "
            "overrides/assets/javascripts/pagefind-search.js), not the query"
        )
        assert first_sections[:1] and first_sections[0] in own, (
            f"{where}: {page} comes first, but its first section is {first_sections[:1]}, not #{anchor} or one of "
            f"its parts (sections shown: {first_sections})"
        )
