"""The symptom index answers the mined problems it says it answers (tests/errors/problems.yml).

For every problem with an `entry`: the anchor is a heading in both languages, the section includes the problem's
snippets, and it links every public report the data lists. Problems with `entry: null` are for later batches.
"""

import pytest

from tests.errors.problems import DATA, answered, included, linked, page_path, problems, section
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
