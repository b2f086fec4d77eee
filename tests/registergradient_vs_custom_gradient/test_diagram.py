"""The chapter's picture is generated: the committed SVGs are what tools/registergradient_diagram.py writes,
each has a text alternative in its language, and its verdicts agree with the table snippet 04 prints."""

import pytest

from tests.harness import run_snippet
from tools.registergradient_diagram import LANGS, TEXT, hooks_svg, targets


@pytest.mark.parametrize("path, content", list(targets().items()), ids=lambda v: getattr(v, "name", "content"))
def test_committed_svg_is_up_to_date(path, content):
    assert path.exists(), f"{path.name} is missing: run python tools/registergradient_diagram.py"
    assert path.read_text(encoding="utf-8") == content, (
        f"{path.name} differs from what tools/registergradient_diagram.py draws: "
        "run python tools/registergradient_diagram.py"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_svg_has_a_text_alternative_in_its_language(lang):
    svg = hooks_svg(lang)
    assert "<title id=" in svg and "<desc id=" in svg and 'role="img"' in svg
    word = "tape" if lang == "en" else "лент"
    assert word in TEXT[lang]["desc"], f"registergradient-hooks.{lang}.svg: description lacks '{word}'"


def test_picture_verdicts_match_the_printed_table():
    out = run_snippet("snippets/registergradient_vs_custom_gradient/04_where_override_applies.py").stdout
    rows = {line.split("|")[0].strip(): line for line in out.splitlines()[2:]}
    override_in_tape = rows["eager_tape"].split("|")[1].strip().startswith("IGNORED")
    override_in_graph = rows["tf_gradients_in_graph"].split("|")[1].strip().startswith("applied")
    assert override_in_tape and override_in_graph, (
        "snippet 04 changed its verdicts: redraw tools/registergradient_diagram.py (lane 1 row 1 says IGNORED)"
    )
    for lang in LANGS:
        verdicts = [v for lane in TEXT[lang]["verdicts"] for v, _ in lane]
        assert verdicts[0] != verdicts[1] == verdicts[2] == verdicts[3], lang
