"""Malformed tree files: every problem names the file, the line, the column and what is wrong.

Each case writes a real file and validates it the way ``grader exercises validate`` does.
Positions are 1-based and counted by hand from the text of the case.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli import main
from reference.problems import FileProblems, Problem
from reference.search import search
from reference.treefile import DEFAULT_MAX_NODES, load, parse, parse_compact, validate

HEAD = "root: A\nnodes:\n"
"""Lines 1 and 2 of most cases; their nodes start on line 3, column 3."""

TWO_LEAVES = "  A: {kind: MAX, children: {a1: B, a2: C}}\n"


def problems_in(tmp_path: Path, content: str | bytes, **options: int) -> list[Problem]:
    path = tmp_path / "case.tree.yaml"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    problems = validate(path, **options)
    assert problems, "the file was accepted"
    assert all(problem.file == str(path) for problem in problems)
    return problems


def where(problems: list[Problem]) -> list[tuple[int, int]]:
    return [(problem.line, problem.column) for problem in problems]


CASES = [
    pytest.param(
        HEAD + TWO_LEAVES + "  B: 1\n  B: 2\n  C: 3\n",
        (5, 3),
        "duplicate node name 'B' (first defined at 4:3)",
        id="duplicate-node-name",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: {kind: LEAF, utility: 1, children: {x: C}}\n  C: 3\n",
        (4, 3),
        "leaf 'B' has children",
        id="leaf-with-children",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: {kind: MIN}\n  C: 3\n",
        (4, 3),
        "MIN node 'B' has no children",
        id="internal-node-without-children",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: {kind: LEAF}\n  C: 3\n",
        (4, 3),
        "leaf 'B' has no utility",
        id="missing-utility",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: {utility: twelve}\n  C: 3\n",
        (4, 16),
        "the utility of 'B' must be a finite number: 'twelve' is not a number",
        id="non-numeric-utility",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: .nan\n  C: 3\n",
        (4, 6),
        "the utility of 'B' must be a finite number: '.nan' is not a finite number",
        id="nan-utility",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: 1\n  C: -.inf\n",
        (5, 6),
        "'-.inf' is not a finite number",
        id="infinite-utility",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: 1e999\n  C: 3\n",
        (4, 6),
        "'1e999' is too large for a finite number",
        id="overflowing-utility",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: yes\n  C: 3\n",
        (4, 6),
        "'yes' is not a number",
        id="boolean-utility",
    ),
    pytest.param(
        HEAD + "  A: {kind: CHANCE, children: {a1: {to: B, p: 3/2}, a2: {to: C, p: 1/2}}}\n"
        "  B: 1\n  C: 2\n",
        (3, 3),
        "chance edge 'a1' of 'A' has probability 3/2, outside (0, 1]",
        id="probability-above-one",
    ),
    pytest.param(
        HEAD + "  A: {kind: CHANCE, children: {a1: {to: B, p: 0}, a2: {to: C, p: 1}}}\n"
        "  B: 1\n  C: 2\n",
        (3, 3),
        "chance edge 'a1' of 'A' has probability 0, outside (0, 1]",
        id="probability-zero",
    ),
    pytest.param(
        HEAD + "  A: {kind: CHANCE, children: {a1: {to: B, p: 1/3}, a2: {to: C, p: 1/3}}}\n"
        "  B: 1\n  C: 2\n",
        (3, 3),
        "the probabilities of chance node 'A' sum to 0.666667, not 1",
        id="probabilities-not-summing-to-one",
    ),
    pytest.param(
        HEAD + "  A: {kind: CHANCE, children: {a1: {to: B, p: 1/2}, a2: C}}\n  B: 1\n  C: 2\n",
        (3, 3),
        "chance edge 'a2' of 'A' has no probability",
        id="chance-edge-without-probability",
    ),
    pytest.param(
        HEAD + "  A: {kind: CHANCE, children: {a1: {to: B, p: half}, a2: {to: C, p: 1/2}}}\n"
        "  B: 1\n  C: 2\n",
        (3, 47),
        "the probability of 'a1' must be a finite number: 'half' is not a number",
        id="non-numeric-probability",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAX, children: {a1: {to: B, p: 1/2}, a2: {to: C, p: 1/2}}}\n"
        "  B: 1\n  C: 2\n",
        (3, 3),
        "MAX node 'A' has probabilities (only CHANCE nodes do)",
        id="probabilities-on-a-max-node",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: 1\n  C: {kind: LEAF, utilty: 3}\n",
        (5, 19),
        "unknown key 'utilty' in node 'C' (allowed: kind, children, utility, heuristic, label)",
        id="unknown-node-key",
    ),
    pytest.param(
        "titel: x\n" + HEAD + TWO_LEAVES + "  B: 1\n  C: 2\n",
        (1, 1),
        "unknown key 'titel' in a tree file (allowed: title, description, root, nodes, tree)",
        id="unknown-top-level-key",
    ),
    pytest.param(
        HEAD + "  A: {kind: CHANCE, children: {a1: {to: B, prob: 1}}}\n  B: 1\n",
        (3, 44),
        "unknown key 'prob' in edge 'a1' of 'A' (allowed: to, p)",
        id="unknown-edge-key",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAXIMUM, children: {a1: B}}\n  B: 1\n",
        (3, 13),
        "unknown kind 'MAXIMUM' for 'A' (MAX, MIN, CHANCE or LEAF)",
        id="wrong-kind",
    ),
    pytest.param(
        HEAD + "  A: {children: {a1: B}}\n  B: 1\n",
        (3, 6),
        "node 'A' has no kind (MAX, MIN, CHANCE or LEAF)",
        id="missing-kind",
    ),
    pytest.param("", (1, 1), "the file is empty", id="empty-file"),
    pytest.param("# only a comment\n\n", (1, 1), "the file is empty", id="only-comments"),
    pytest.param(
        b"root: A\nnodes:\n  A: MAX[3 \xff 4]\n",
        (3, 12),
        "not valid UTF-8 (byte 0xff)",
        id="non-utf8-bytes",
    ),
    pytest.param(
        HEAD + "  A: MAX[3 1 4]\n  A1: 5\n",
        (4, 3),
        "node 'A1' is not reachable from the root 'A'",
        id="unreachable-node",
    ),
    pytest.param(
        HEAD + TWO_LEAVES + "  B: 1\n",
        (3, 40),
        "'A' leads to 'C', which is not defined",
        id="unknown-child",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAX, children: {a1: B}}\n  B: {kind: MIN, children: {b1: A}}\n",
        (4, 33),
        "node 'A' is reached a second time (a tree node has one parent)",
        id="cycle",
    ),
    pytest.param(
        "root: Z\nnodes:\n  A: 1\n",
        (1, 7),
        "the root 'Z' is not defined",
        id="root-not-defined",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAX, children: {a1: B}\n  B: 1\n",
        (4, 3),
        "YAML syntax error",
        id="yaml-syntax-error",
    ),
    pytest.param(
        HEAD + "  A: MAX[ MIN[3 12 8] MIN[2 4 nan] ]\n",
        (3, 31),
        "bad utility: 'nan' is not a finite number",
        id="compact-subtree-error-located-in-the-file",
    ),
    pytest.param(
        "title: multi-line\ntree: |\n  MAX[\n    MIN[3 12 8]\n    MIN[2 4 6\n  ]\n",
        (3, 6),
        "this '[' is never closed",
        id="compact-block-scalar-error-located-in-the-file",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAX, children: {a1: B, a1: C}}\n  B: 1\n  C: 2\n",
        (3, 36),
        "'a1' is given twice",
        id="duplicate-action",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAX, heuristic: .inf}\n",
        (3, 29),
        "the heuristic of 'A' must be a finite number",
        id="infinite-heuristic",
    ),
    pytest.param(
        HEAD + "  A: {kind: MAX, children: {a1: {p: 1}}}\n",
        (3, 33),
        "edge 'a1' of 'A' has no child (to: NAME)",
        id="edge-without-child",
    ),
    pytest.param(
        "- A\n- B\n",
        (1, 1),
        "a tree file is a mapping with the keys root and nodes (or tree)",
        id="list-instead-of-mapping",
    ),
    pytest.param(
        "tree: MAX[1 2]\n" + HEAD + "  A: 1\n",
        (1, 1),
        "give either tree or root and nodes, not both",
        id="tree-and-nodes",
    ),
    pytest.param(
        HEAD + "  A: MAX[1 2]\n  B: 3\x1b\n",
        (4, 7),
        "the character U+001B is not allowed in a YAML file",
        id="control-character",
    ),
    pytest.param(
        "title: x\n",
        (1, 1),
        "no tree: give root and nodes, or a compact tree under tree",
        id="no-tree",
    ),
]


@pytest.mark.parametrize(("content", "position", "message"), CASES)
def test_malformed_file(
    tmp_path: Path, content: str | bytes, position: tuple[int, int], message: str
) -> None:
    problems = problems_in(tmp_path, content)
    located = [p for p in problems if message in p.message]
    assert located, [str(p) for p in problems]
    assert (located[0].line, located[0].column) == position, [str(p) for p in problems]


def test_every_problem_is_reported_at_once_in_file_order(tmp_path: Path) -> None:
    content = HEAD + (
        "  A: {kind: MAX, children: {a1: B, a2: C, a3: D}}\n"
        "  B: .nan\n"
        "  C: {kind: MINN, children: {c1: C1}}\n"
        "  C1: 1\n"
        "  D: {kind: MIN, colour: red}\n"
    )
    problems = problems_in(tmp_path, content)
    # D's unknown key leaves it readable: that it has no children is found in the same pass.
    assert where(problems) == [(4, 6), (5, 13), (7, 3), (7, 18)]
    assert problems[2].message == "MIN node 'D' has no children"


def test_size_limit_is_configurable(tmp_path: Path) -> None:
    content = HEAD + "  A: {kind: MAX, children: {a1: B, a2: C}}\n  B: 1\n  C: 2\n"
    assert validate_text(tmp_path, content, max_nodes=3) == []
    problems = problems_in(tmp_path, content, max_nodes=2)
    assert where(problems) == [(5, 3)]
    assert problems[0].message == "the tree has more than 2 nodes (the size limit)"


def test_size_limit_counts_compact_subtrees(tmp_path: Path) -> None:
    problems = problems_in(tmp_path, "title: t\ntree: MAX[1 2 3 4 5]\n", max_nodes=4)
    assert where(problems) == [(2, 17)]
    assert "more than 4 nodes" in problems[0].message
    assert DEFAULT_MAX_NODES == 1_000_000


def test_size_limit_from_the_environment_in_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.tree.yaml"
    path.write_text("tree: MAX[1 2 3]\n", encoding="utf-8")
    monkeypatch.setenv("GRADER_MAX_TREE_NODES", "3")
    result = CliRunner().invoke(main, ["exercises", "validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}:1:15: the tree has more than 3 nodes (the size limit)" in result.stderr


def validate_text(tmp_path: Path, content: str, **options: int) -> list[Problem]:
    path = tmp_path / "ok.tree.yaml"
    path.write_text(content, encoding="utf-8")
    return validate(path, **options)


DEPTH = 10_000


def test_yaml_nested_ten_thousand_levels_is_refused_without_recursion(tmp_path: Path) -> None:
    content = "root: A\nnodes:\n  A: " + "{a: " * DEPTH + "1" + "}" * DEPTH + "\n"
    problems = problems_in(tmp_path, content)
    assert where(problems) == [(3, 6 + 4 * 62)]
    assert "nested more than 64 levels deep" in problems[0].message


def test_compact_tree_ten_thousand_levels_deep(tmp_path: Path) -> None:
    levels = "".join("MAX[" if i % 2 == 0 else "MIN[" for i in range(DEPTH))
    path = tmp_path / "deep.tree.yaml"
    path.write_text(f"tree: {levels}7{']' * DEPTH}\n", encoding="utf-8")
    assert sys.getrecursionlimit() < DEPTH
    tree = load(path)
    assert (len(tree), tree.height()) == (DEPTH + 1, DEPTH)
    assert search(tree, "alphabeta").value == 7


def test_flat_file_of_a_chain_ten_thousand_levels_deep(tmp_path: Path) -> None:
    lines = [
        f"  N{i}: {{kind: {'MAX' if i % 2 else 'MIN'}, children: {{m: N{i + 1}}}}}"
        for i in range(DEPTH)
    ]
    content = "root: N0\nnodes:\n" + "\n".join(lines) + f"\n  N{DEPTH}: -1\n"
    path = tmp_path / "chain.tree.yaml"
    path.write_text(content, encoding="utf-8")
    tree = load(path)
    assert tree.depth(f"N{DEPTH}") == DEPTH
    assert search(tree, "minimax").value == -1


def test_compact_unclosed_bracket_ten_thousand_levels_deep() -> None:
    with pytest.raises(FileProblems) as caught:
        parse_compact("MAX[" * DEPTH + "1" + "]" * (DEPTH - 1))
    assert str(caught.value) == "<compact>:1:4: this '[' is never closed"


def test_cli_lists_every_problem_and_exits_1_without_traceback(tmp_path: Path) -> None:
    good = tmp_path / "good.tree.yaml"
    good.write_text("tree: MAX[ MIN[3 12 8] MIN[2 4 6] ]\n", encoding="utf-8")
    bad = tmp_path / "bad.tree.yaml"
    bad.write_text(HEAD + "  A: {kind: MAX, children: {a1: B}}\n  B: nan\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["exercises", "validate", str(good), str(bad)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{bad}:4:6: the utility of 'B' must be a finite number: 'nan' is not a finite number",
        "1 problem(s) found",
    ]
    assert "Traceback" not in result.output
    ok = CliRunner().invoke(main, ["exercises", "validate", str(good)])
    assert (ok.exit_code, ok.stdout) == (0, "1 file(s) valid\n")


def test_unreadable_path_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    problems = validate(tmp_path / "missing.tree.yaml")
    assert len(problems) == 1 and "cannot read the file" in problems[0].message


def test_parse_names_the_given_file() -> None:
    with pytest.raises(FileProblems) as caught:
        parse("root: A\nnodes:\n  A: MIN\n", "lecture3.tree.yaml")
    assert str(caught.value) == (
        "lecture3.tree.yaml:3:9: MIN needs children in [...] or a heuristic in (...)"
    )
