"""Spelling of every page, both languages, checked by hunspell with Debian's Russian and English dictionaries.

Only prose is checked: Markdown pages, the markdown cells of the notebook sources (docs/notebooks/) and the
labels of the SVG diagrams (docs/assets/); tests/prose.py says what is blanked out first (code, math, URLs,
anchors, ...). Line numbers are kept.

Words that are right but not in the dictionaries (code names, library names, our terms) go in
tests/spelling/words.txt, one per line, with `word/model` to give a Russian word the endings of a model word
(`сигмоида/вода` accepts сигмоиду, сигмоидой, ...). The test never skips: without hunspell and both
dictionaries it fails and says what to install.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.harness import ROOT, relative
from tests.prose import diagram_labels, diagrams, markdown_of, pages, prose_lines

WORDS = ROOT / "tests" / "spelling" / "words.txt"
DICTIONARIES = ("ru_RU", "en_US")
INSTALL_HINT = (
    "install the spell checker and its dictionaries: on Debian/Ubuntu "
    "`sudo apt-get install hunspell hunspell-ru hunspell-en-us` (`make test` does this when run as root)"
)


# ---------------------------------------------------------------------------------------------------------
# hunspell


def hunspell_problem() -> str | None:
    if shutil.which("hunspell") is None:
        return "the `hunspell` command is not installed; " + INSTALL_HINT
    listing = subprocess.run(["hunspell", "-D"], input="", capture_output=True, text=True).stderr
    available = {Path(line.strip()).name for line in listing.splitlines() if line.startswith("/")}
    missing = [d for d in DICTIONARIES if d not in available]
    if missing:
        return (
            f"hunspell has no {', '.join(missing)} dictionary (found: {sorted(available) or 'none'}); " + INSTALL_HINT
        )
    return None


def word_list_entries() -> list[tuple[int, str]]:
    """(line number, entry) for each entry of the word list; '#' starts a comment."""
    entries = []
    for number, line in enumerate(WORDS.read_text(encoding="utf-8").splitlines(), start=1):
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.append((number, entry))
    return entries


@pytest.fixture(scope="module")
def personal_dictionary(tmp_path_factory):
    problem = hunspell_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    path = tmp_path_factory.mktemp("spelling") / "words.dic"
    path.write_text("\n".join(entry for _, entry in word_list_entries()) + "\n", encoding="utf-8")
    return path


def misspellings(lines: list[str], personal: Path) -> list[tuple[int, str, str]]:
    """(line number, word, suggestions) for every word hunspell rejects; one hunspell process per call."""
    # Pipe mode (-a): one result line per word, an empty line after each input line. '^' makes hunspell read
    # the rest of a line as text, even if it starts with a pipe-mode command character.
    text = "".join("^" + line.replace("\t", " ") + "\n" for line in lines)
    proc = subprocess.run(
        ["hunspell", "-a", "-i", "utf-8", "-d", ",".join(DICTIONARIES), "-p", str(personal)],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert proc.returncode == 0, f"hunspell failed ({proc.returncode}): {proc.stderr[-1000:]}"
    results = proc.stdout.split("\n")[1:]  # first line is the version banner
    found = []
    number = 1
    for line in results:
        if line == "":
            number += 1
        elif line[0] in "&#":
            parts = line.split(":", 1)
            word = parts[0].split()[1]
            suggestions = parts[1].strip() if len(parts) > 1 else ""
            found.append((number, word, suggestions))
    return found


# ---------------------------------------------------------------------------------------------------------
# Tests


@pytest.mark.parametrize("page", pages(), ids=[relative(p) for p in pages()])
def test_page_is_spelled_correctly(page, personal_dictionary):
    lines = prose_lines(markdown_of(page))
    found = misspellings(lines, personal_dictionary)
    if found:
        report = "\n".join(
            f"  {relative(page)}:{number}: {word!r}" + (f" (did you mean: {suggestions})" if suggestions else "")
            for number, word, suggestions in found
        )
        pytest.fail(
            f"hunspell ({'+'.join(DICTIONARIES)}) does not know these words:\n{report}\n"
            f"Fix the spelling; or, if a word is right (a code name, a library, a term), add it to "
            f"{relative(WORDS)} in its section, in sorted order.",
            pytrace=False,
        )


@pytest.mark.parametrize("svg", diagrams(), ids=[relative(p) for p in diagrams()])
def test_diagram_labels_are_spelled_correctly(svg, personal_dictionary):
    labels = prose_lines(diagram_labels(svg))
    found = misspellings(labels, personal_dictionary)
    if found:
        report = "\n".join(
            f"  {relative(svg)}: label {labels[number - 1].strip()!r}: {word!r}" for number, word, _ in found
        )
        pytest.fail(
            f"hunspell does not know these words in diagram labels:\n{report}\n"
            f"Fix the label (in the tool that draws the diagram, if it is generated); or, if a word is right, add it "
            f"to {relative(WORDS)} in its section, in sorted order.",
            pytrace=False,
        )


def test_word_list_is_sorted_and_has_no_duplicates():
    """Within each section (a block that starts with a '#' comment line), entries are sorted, case-insensitively."""
    sections: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(WORDS.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#"):
            if sections[-1]:
                sections.append([])
            continue
        entry = line.split("#", 1)[0].strip()
        if entry:
            sections[-1].append((number, entry))
    problems = []
    for section in sections:
        keys = [entry.casefold() for _, entry in section]
        for (number, entry), key, previous in zip(section[1:], keys[1:], keys):
            if key < previous:
                problems.append(f"{relative(WORDS)}:{number}: {entry!r} is out of order")
    seen = {}
    for number, entry in word_list_entries():
        if entry in seen:
            problems.append(f"{relative(WORDS)}:{number}: {entry!r} repeats line {seen[entry]}")
        seen.setdefault(entry, number)
    assert not problems, "keep the word list sorted and without duplicates:\n" + "\n".join(problems)


def test_every_word_list_entry_is_used():
    """An entry no page uses any more is stale; remove it, so the list only holds words the site needs."""
    texts = [markdown_of(p) for p in pages()] + [diagram_labels(svg) for svg in diagrams()]
    prose = "\n".join("\n".join(prose_lines(text)) for text in texts)
    tokens = set(re.findall(r"[\w'’-]+", prose))
    words = {part for token in tokens for part in [token, *token.split("-")]}
    lowered = {w.casefold() for w in words}

    def used(entry: str) -> bool:
        stem, _, model = entry.partition("/")
        if model:  # an inflected word: any form sharing its stem (the word minus a two-letter ending) counts
            prefix = stem[: max(3, len(stem) - 2)].casefold()
            return any(w.startswith(prefix) for w in lowered)
        return stem.casefold() in lowered if stem.islower() else stem in words

    stale = [f"{relative(WORDS)}:{number}: {entry!r}" for number, entry in word_list_entries() if not used(entry)]
    assert not stale, "word-list entries that no page uses (remove them):\n" + "\n".join(stale)
