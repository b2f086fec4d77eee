"""The symptom index answers the mined problems it says it answers (tests/errors/problems.yml).

For every problem with an `entry`: the anchor is a heading in both languages, the section includes the problem's
snippets, and it links every public report the data lists. Problems with `entry: null` are for later batches.
"""

import re

import pytest

from tests.errors.problems import DATA, answered, included, linked, page_path, problems, section, with_recipe
from tests.harness import ROOT, relative

KINDS = {
    "error-message",
    "gradient-none",
    "nan-or-inf",
    "zero-gradient",
    "silently-ignored",
    "wrong-second-derivative",
    "breaks-in-tf-function",
    "breaks-in-keras-fit",
    "breaks-after-export",
    "other",
}
DONE = answered()
RECIPES = with_recipe()


def test_every_problem_is_complete():
    bad = []
    ids = [p["id"] for p in problems()]
    bad += [f"duplicate id {i}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    for p in problems():
        missing = [k for k in ("symptom", "symptom_ru", "sources") if not p.get(k)]
        if missing:
            bad.append(f"{p['id']}: no {', '.join(missing)}")
        if p["symptom_kind"] not in KINDS:
            bad.append(f"{p['id']}: symptom_kind {p['symptom_kind']!r} is not one of {sorted(KINDS)}")
        if p["entry"] and not (p["snippets"] and p.get("search", {}).get("en") and p.get("search", {}).get("ru")):
            bad.append(f"{p['id']}: an answered problem needs `snippets` and `search: {{en, ru}}`")
    assert not bad, f"{relative(DATA)}:\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("problem", DONE, ids=[p["id"] for p in DONE])
def test_answered_problem_has_its_entry(problem, lang):
    entry = problem["entry"]
    page = page_path(entry, lang)
    lines = section(entry, lang)
    assert lines is not None, (
        f"{relative(DATA)}: {problem['id']} says it is answered at {entry}, but {relative(page)} has no heading "
        f"with {{ #{entry.split('#')[1]} }}: add the entry (both languages) or set `entry: null`"
    )
    missing = [s for s in problem["snippets"] if s not in included(lines)]
    assert not missing, (
        f"{relative(page)}#{entry.split('#')[1]} does not include {missing} ({problem['id']} in {relative(DATA)}); "
        "paste  {* <snippet> *}  into that section"
    )
    for snippet in problem["snippets"]:
        assert (ROOT / snippet).exists(), f"{relative(DATA)}: {problem['id']}: {snippet} does not exist"
    unlinked = [s["url"] for s in problem["sources"] if s["url"] not in linked(lines)]
    assert not unlinked, (
        f"{relative(page)}#{entry.split('#')[1]} does not link these reports of {problem['id']} "
        f"(listed in {relative(DATA)}):\n" + "\n".join(unlinked)
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("problem", RECIPES, ids=[p["id"] for p in RECIPES])
def test_recipe_problem_has_its_recipe(problem, lang):
    """`recipe: cookbook/<page>.md#<anchor>`: a heading of that page in both languages, whose section includes a
    cookbook snippet and links every public report of the problem."""
    recipe = problem["recipe"]
    assert recipe.startswith("cookbook/") and "#" in recipe, (
        f"{relative(DATA)}: {problem['id']}: recipe {recipe!r} is not cookbook/<page>.md#<anchor>"
    )
    page = page_path(recipe, lang)
    assert page.exists(), (
        f"{relative(DATA)}: {problem['id']}: recipe {recipe} names {relative(page)}, which does not exist"
    )
    lines = section(recipe, lang)
    assert lines is not None, (
        f"{relative(DATA)}: {problem['id']} says its recipe is {recipe}, but {relative(page)} has no heading with "
        f"{{ #{recipe.split('#')[1]} }}: add the recipe (both languages) or set `recipe: null`"
    )
    assert any(path.startswith("snippets/cookbook/") for path in included(lines)), (
        f"{relative(page)}#{recipe.split('#')[1]} includes no snippets/cookbook/ file ({problem['id']})"
    )
    unlinked = [s["url"] for s in problem["sources"] if s["url"] not in linked(lines)]
    assert not unlinked, (
        f"{relative(page)}#{recipe.split('#')[1]} does not link these reports of {problem['id']} "
        f"(listed in {relative(DATA)}):\n" + "\n".join(unlinked)
    )


# Issue 12's "done when": at least 40 mined problems answered, and the built site links at least 40 distinct public
# issues, pull requests or Q&A threads in each language.
DONE_WHEN = 40
THREAD = re.compile(
    r"https://(?:github\.com/[\w.-]+/[\w.-]+/(?:issues|pull|discussions)/\d+"
    r"|stackoverflow\.com/questions/\d+|(?:[\w-]+\.)?stackexchange\.com/questions/\d+"
    r"|discuss\.tensorflow\.org/t/[\w-]+(?:/\d+)?)"
)


def test_enough_problems_are_answered():
    assert len(DONE) >= DONE_WHEN, (
        f"{relative(DATA)}: {len(DONE)} of {len(problems())} problems have an `entry`; issue 12 is done at "
        f"{DONE_WHEN}. Answer {DONE_WHEN - len(DONE)} more (entry, snippets, search) in docs/errors/ and the twins"
    )


@pytest.fixture(scope="module")
def site(built_site):
    if built_site.returncode != 0:
        pytest.fail("The strict build failed (see test_build.py).\n" + built_site.log[-3000:])
    return built_site.site_dir


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_site_links_enough_public_threads(site, lang):
    pages = [p for p in site.rglob("*.html") if (p.relative_to(site).parts[0] == "ru") == (lang == "ru")]
    threads = {m.rstrip("/") for page in pages for m in THREAD.findall(page.read_text(encoding="utf-8"))}
    assert len(threads) >= DONE_WHEN, (
        f"the built {lang} site links {len(threads)} distinct public issues or Q&A threads; issue 12 asks for "
        f"{DONE_WHEN}. Every answered problem links its reports ({relative(DATA)}, `sources`)"
    )
