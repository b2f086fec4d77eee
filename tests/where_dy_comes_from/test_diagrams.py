"""The where-dy diagrams: committed SVGs are what tools/where_dy_diagrams.py draws from the snippets' output,
their numbers are the numbers the snippets really print, and both pages show them with alt text."""

import importlib.util
import math
import re
import xml.etree.ElementTree as ET

import pytest

from tests.harness import ROOT, run_snippet

TOOL = ROOT / "tools" / "where_dy_diagrams.py"
SVG_NS = "{http://www.w3.org/2000/svg}"


def load_tool():
    spec = importlib.util.spec_from_file_location("where_dy_diagrams", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def svg_texts(path):
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    return root, " | ".join("".join(t.itertext()) for t in root.iter(f"{SVG_NS}text"))


def test_committed_svgs_are_fresh():
    stale = []
    for path, text in tool.expected_files().items():
        if not path.exists():
            stale.append(f"{path.relative_to(ROOT)} is missing")
        elif path.read_text(encoding="utf-8") != text:
            stale.append(f"{path.relative_to(ROOT)} is out of date")
    assert not stale, "\n".join(stale) + f"\nrun {tool.COMMAND} and commit the SVG files"


@pytest.mark.parametrize(
    "snippet, numbers_of, stem",
    [("07_chain_of_two", "chain_numbers", "where-dy-chain"), ("06_two_consumers", "fork_numbers", "where-dy-fork")],
)
def test_diagram_numbers_are_the_snippet_output(snippet, numbers_of, stem):
    path = f"snippets/where_dy_comes_from/{snippet}.py"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path} failed:\n{result.stderr[-2000:]}"
    live = getattr(tool, numbers_of)(result.stdout)
    kept = getattr(tool, numbers_of)((ROOT / path).with_suffix(".out").read_text(encoding="utf-8"))
    assert live == kept, f"{path} now prints other numbers than its kept .out; run {tool.COMMAND}"
    for lang in ("en", "ru"):
        svg = ROOT / "docs" / "assets" / "diagrams" / f"{stem}-{lang}.svg"
        _, texts = svg_texts(svg)
        missing = [f"{name} = {value}" for name, value in live.items() if value not in texts]
        assert not missing, f"{svg.relative_to(ROOT)} does not show {missing} printed by {path}; run {tool.COMMAND}"


def test_diagram_numbers_obey_the_chain_rule():
    chain = {k: float(v) for k, v in tool.chain_numbers(tool.CHAIN_OUT.read_text(encoding="utf-8")).items()}
    log2 = math.log(2.0)
    assert chain["y"] == pytest.approx(log2, abs=1e-4) and chain["L"] == pytest.approx(log2**2, abs=1e-4)
    assert chain["dy_square"] == 1.0
    assert chain["dy_log"] == pytest.approx(2 * chain["y"] * chain["dy_square"], abs=1e-4)
    assert chain["dx"] == pytest.approx(chain["dy_log"] * chain["sigmoid"], abs=1e-4)
    fork = {k: float(v) for k, v in tool.fork_numbers(tool.FORK_OUT.read_text(encoding="utf-8")).items()}
    assert fork["dy"] == pytest.approx(fork["from_a"] + fork["from_b"], abs=2e-4), "the fork's dy is not the sum"
    assert fork["dx"] == pytest.approx(fork["dy"] * 0.5, abs=1e-4)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_pages_show_their_language_svgs_with_alt_text(lang):
    page = ROOT / "docs" / ("where-dy-comes-from.md" if lang == "en" else "where-dy-comes-from.ru.md")
    images = re.findall(
        r"!\[([^\]]+)\]\((assets/diagrams/where-dy-[a-z]+-([a-z]+)\.svg)\)", page.read_text(encoding="utf-8")
    )
    assert [src for _, src, _ in images] == [
        f"assets/diagrams/where-dy-fork-{lang}.svg",
        f"assets/diagrams/where-dy-chain-{lang}.svg",
    ], f"{page.relative_to(ROOT)} should show the fork and chain diagrams in its own language"
    for alt, src, _ in images:
        assert len(alt) > 80, f"{page.relative_to(ROOT)}: alt text of {src} is too short to stand in for it"
        root, _ = svg_texts(ROOT / "docs" / src)
        title, desc = root.find(f"{SVG_NS}title"), root.find(f"{SVG_NS}desc")
        assert title is not None and title.text and desc is not None and desc.text, f"{src}: no <title>/<desc>"
        background = root.find(f"{SVG_NS}rect")
        assert background.get("fill") == "#ffffff", f"{src}: the first shape should be the light background card"
        numbers = re.findall(r"\d+\.\d{4}", alt)
        assert numbers and all(n in desc.text for n in numbers), f"{src}: alt text numbers differ from the SVG's <desc>"
