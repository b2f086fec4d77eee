"""The where-dy stepper's data (#step-through): the committed steps are what tools/where_dy_stepper.py makes from
snippet 17's kept output, every number of every step is the number the snippet printed on that step's line, and
every word the stepper's script shows is on both pages, with the same slots for the numbers.

The snippet itself (its real output equals the kept one) is checked by tests/test_snippets.py; the stepper in a
browser by tests/site/test_stepper.py.
"""

import json
import re
from html.parser import HTMLParser

import pytest

from tests.harness import ROOT, run_snippet
from tools import where_dy_stepper as tool

SNIPPET = "snippets/where_dy_comes_from/17_step_through_trace.py"
SCRIPT = ROOT / "overrides" / "assets" / "javascripts" / "dy-stepper.js"
PAGES = {"en": ROOT / "docs" / "where-dy-comes-from.md", "ru": ROOT / "docs" / "where-dy-comes-from.ru.md"}
NUMBER = re.compile(r"-?\d+\.\d{4}")
STEPS_INCLUDE = '--8<-- "snippets/where_dy_comes_from/17_step_through_trace.steps.json"'


def committed() -> dict:
    return json.loads(tool.STEPS_JSON.read_text(encoding="utf-8"))


def runs_as_printed(text: str) -> dict[tuple[str, str], list[str]]:
    """{(case name, x): [step line, ...]}: the kept output cut at its case lines, read without the tool."""
    runs, current = {}, None
    for line in text.splitlines():
        header = re.fullmatch(r"(\S.*), x = (-?\d+\.\d+):", line)
        if header:
            current = runs.setdefault((header[1], header[2]), [])
        else:
            current.append(line)
    return runs


def numbers(*texts: str) -> set[str]:
    return {n for text in texts for n in NUMBER.findall(text)}


def test_committed_steps_are_fresh():
    for path, text in tool.expected_files().items():
        assert path.exists(), f"{path.relative_to(ROOT)} is missing; run {tool.COMMAND} and commit it"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} is not what {tool.TRACE_OUT.relative_to(ROOT)} gives; "
            f"run {tool.COMMAND} and commit it"
        )


def test_kept_output_is_what_the_snippet_prints():
    result = run_snippet(SNIPPET)
    assert result.returncode == 0, f"{SNIPPET} failed:\n{result.stderr[-2000:]}"
    assert result.stdout == tool.TRACE_OUT.read_text(encoding="utf-8"), (
        f"{SNIPPET} now prints something else than its kept output; if that is right, run {tool.COMMAND}"
    )


def test_every_case_and_x_has_its_steps():
    data = committed()
    printed = runs_as_printed(tool.TRACE_OUT.read_text(encoding="utf-8"))
    assert sorted(data["cases"]) == sorted(tool.CASE_IDS.values())
    assert {(tool.CASE_IDS[case], x) for case, x in printed} == {(c, x) for c in data["cases"] for x in data["xs"]}
    assert len(data["xs"]) >= 3, "a few values of x to choose from"


@pytest.mark.parametrize("case", list(tool.CASE_IDS))
def test_each_step_shows_the_numbers_of_its_line(case):
    """Step i of a run is line i of that run in the kept output: its sentence's numbers are that line's numbers,
    and the boxes show, from that step on, only numbers printed up to that line."""
    data = committed()["cases"][tool.CASE_IDS[case]]
    for (name, x), lines in runs_as_printed(tool.TRACE_OUT.read_text(encoding="utf-8")).items():
        if name != case:
            continue
        run = data[x]
        where = f"{tool.TRACE_OUT.relative_to(ROOT)} ({case}, x = {x})"
        assert len(run["steps"]) == len(lines), f"{where}: {len(lines)} lines, {len(run['steps'])} steps"
        for i, (step, line) in enumerate(zip(run["steps"], lines)):
            shown = numbers(*step["v"].values())
            assert shown == numbers(line), f"{where}, step {i + 1}: shows {sorted(shown)}, the line is {line!r}"
            revealed = numbers(*(f["t"] for box in run["boxes"] for f in box if f["s"] <= i))
            assert revealed == numbers(*lines[: i + 1]), f"{where}, step {i + 1}: the boxes show {sorted(revealed)}"
            for box in run["boxes"]:
                for field in box:
                    if field["s"] == i:
                        assert numbers(field["t"]) <= numbers(line) | numbers(*lines[:i]), (where, i, field)


class _Words(HTMLParser):
    """The [data-t] labels of a page's stepper block: key -> the [data-v] slots inside it."""

    def __init__(self):
        super().__init__()
        self.words: dict[str, list[str]] = {}
        self.open: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-v" in attrs:
            for key in self.open:
                if key:
                    self.words[key].append(attrs["data-v"])
        if tag == "span":
            key = attrs.get("data-t")
            if key:
                self.words[key] = []
            self.open.append(key)

    def handle_endtag(self, tag):
        if tag == "span" and self.open:
            self.open.pop()


def stepper_words(lang: str) -> dict[str, list[str]]:
    text = PAGES[lang].read_text(encoding="utf-8")
    block = re.search(r"<div class=\"dy-stepper\" data-dy-stepper hidden markdown>(.*?)\n</div>", text, re.S)
    assert block, f"{PAGES[lang].relative_to(ROOT)}: no stepper block (<div ... data-dy-stepper hidden markdown>)"
    parser = _Words()
    parser.feed(block[1])
    return parser.words


def words_the_script_uses() -> set[str]:
    script = SCRIPT.read_text(encoding="utf-8")
    return set(re.findall(r"words\.(\w+)", script)) | set(re.findall(r'(?:say|choose|button)\("([\w-]+)"', script))


@pytest.mark.parametrize("lang", PAGES)
def test_every_word_the_script_shows_is_on_the_page(lang):
    page = PAGES[lang]
    words = stepper_words(lang)
    data = committed()
    needed = words_the_script_uses() | {f"case-{c}" for c in data["cases"]}
    steps = [step for case in data["cases"].values() for run in case.values() for step in run["steps"]]
    needed |= {step["say"] for step in steps} | {step["pass"] for step in steps}
    missing = sorted(needed - set(words))
    assert not missing, f"{page.relative_to(ROOT)}: the stepper block has no <span data-t=...> for {missing}"
    unused = sorted(set(words) - needed)
    assert not unused, f"{page.relative_to(ROOT)}: labels no step uses (remove them): {unused}"
    for case in data["cases"].values():
        for run in case.values():
            for step in run["steps"]:
                empty = sorted(set(words[step["say"]]) - set(step["v"]))
                assert not empty, f"{page.relative_to(ROOT)}: {step['say']!r} has slots no step fills: {empty}"
    assert sorted(words["progress"]) == ["m", "n", "pass"]
    assert STEPS_INCLUDE in page.read_text(encoding="utf-8"), f"{page.relative_to(ROOT)}: add {STEPS_INCLUDE}"


def test_both_languages_have_the_same_words_and_slots():
    en, ru = stepper_words("en"), stepper_words("ru")
    assert sorted(en) == sorted(ru), "the stepper blocks of the two pages have different [data-t] keys"
    differ = [key for key in en if sorted(en[key]) != sorted(ru[key])]
    assert not differ, f"these labels have other [data-v] slots in the two languages: {differ}"
