"""The second-order picture: committed SVGs match their generator, one per language, with a text alternative."""

import re

from tests.harness import ROOT, relative
from tools.second_order_diagram import targets


def test_committed_svgs_match_the_generator():
    for path, content in targets().items():
        assert path.exists(), f"{relative(path)} is missing: run python tools/second_order_diagram.py"
        assert path.read_text(encoding="utf-8") == content, (
            f"{relative(path)} differs from what tools/second_order_diagram.py draws: run it and commit the SVG"
        )


def test_each_language_has_its_labels_and_a_description():
    for path, content in targets().items():
        lang = path.name.split(".")[-2]
        title = re.search(r"<title[^>]*>([^<]+)</title>", content).group(1)
        desc = re.search(r"<desc[^>]*>([^<]+)</desc>", content).group(1)
        cyrillic = bool(re.search("[а-яё]", title + desc, flags=re.IGNORECASE))
        assert cyrillic == (lang == "ru"), f"{relative(path)}: title/description not in the page's language"
        for name in ("op_with_fused_backprop", "first_order_custom", "second_order_and_transpose", "unused_x"):
            assert name in content, f"{relative(path)} no longer names {name}"


def test_pages_show_the_picture_with_alt_text():
    for page in ("second-order.md", "second-order.ru.md"):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        match = re.search(r"!\[([^\]]{80,})\]\(assets/diagrams/second-order-passes\.svg\)", text)
        assert match, f"docs/{page} must show assets/diagrams/second-order-passes.svg with a real alt text"
