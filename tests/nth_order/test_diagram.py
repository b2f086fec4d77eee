"""The n-th order picture is generated: the committed SVGs are what tools/nth_order_diagram.py writes."""

import pytest

from tools.nth_order_diagram import LANGS, nesting_svg, targets


@pytest.mark.parametrize("path, content", list(targets().items()), ids=lambda v: getattr(v, "name", "content"))
def test_committed_svg_is_up_to_date(path, content):
    assert path.exists(), f"{path.name} is missing: run python tools/nth_order_diagram.py"
    assert path.read_text(encoding="utf-8") == content, (
        f"{path.name} differs from what tools/nth_order_diagram.py draws: run python tools/nth_order_diagram.py"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_svg_has_a_text_alternative_in_its_language(lang):
    svg = nesting_svg(lang)
    assert "<title id=" in svg and "<desc id=" in svg and 'role="img"' in svg
    word = "tape" if lang == "en" else "лента"
    assert word in svg, f"nth-order-nesting.{lang}.svg has no '{word}' label"
