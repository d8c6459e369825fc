"""Nothing in the templates, the tree drawings or the scripts needs the CSP to allow inline
script or style: no style attribute, no on* handler, no javascript: URL, no script body
other than a JSON data block, no style set from a script."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.web.treesvg import NodeMark, tree_svg
from reference import treefile

WEB = Path(__file__).resolve().parents[3] / "grader" / "web"
TEMPLATES = sorted((WEB / "templates").rglob("*.html"))
SCRIPTS = sorted((WEB / "static").glob("*.js"))
FIGURE = WEB.parents[1] / "exercises" / "aima-fig5.2-minimax" / "fig5.2.tree.yaml"

INLINE = {
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "style element": re.compile(r"<style[\s>]", re.I),
    "event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
}
SCRIPT = re.compile(r"<script(?P<attributes>[^>]*)>(?P<body>.*?)</script>", re.I | re.S)
SCRIPT_STYLE = re.compile(r"\.style\b|setAttribute\(\s*['\"]style|cssText|insertRule")


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.relative_to(WEB).as_posix())
def test_a_template_has_no_inline_script_or_style(path: Path) -> None:
    text = path.read_text()

    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    for script in SCRIPT.finditer(text):
        if script["body"].strip() and 'type="application/json"' not in script["attributes"]:
            found.append("inline script")

    assert not found


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.name)
def test_a_script_sets_no_style(path: Path) -> None:
    assert not SCRIPT_STYLE.search(path.read_text())


def test_a_tree_drawing_has_no_inline_style() -> None:
    tree = treefile.load(FIGURE)
    marks = {node.name: NodeMark(css_class="verdict-ok", title="t", cut=True) for node in tree}

    svg = str(tree_svg(tree, marks, max_nodes=5))

    assert "<svg" in svg
    assert not [what for what, pattern in INLINE.items() if pattern.search(svg)]
