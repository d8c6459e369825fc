"""``grader exercises import-cs188``: turn CS188 game-tree tests into exercise folders.

Each ``GraphGameTreeTest`` file becomes one exercise folder: its tree file and an
``exercise.yaml`` with the test's algorithm and CS188's conventions (the strict pruning rule,
the depth counted in moves of every agent). When the test has a ``.solution`` file beside it,
the reference search must reproduce its action and generated states, or the exercise is not
written.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
import yaml

from reference.algorithms import ALGORITHMS
from reference.cs188 import (
    GAME_TREE_CLASS,
    Cs188Import,
    check_solution,
    class_of,
    generated_states,
    import_file,
    import_solution,
)
from reference.exercises.loader import EXERCISE_FILE
from reference.problems import FileProblems, Problem
from reference.search import SearchError, SearchResult
from reference.treefile import render
from reference.values import format_value, normalize

SLUG_PREFIX = "cs188-"


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What became of one test: its summary line's text, and whether it was imported."""

    text: str
    imported: bool = False
    skipped: bool = False


@click.command("import-cs188")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder to write the exercise folders in (made when missing).",
)
@click.option("--force", is_flag=True, help="Replace exercise folders that already exist.")
def import_cs188(path: Path, output: Path, force: bool) -> None:
    """Turn CS188 GraphGameTreeTest files into exercise folders.

    PATH is one .test file, or a folder such as CS188's test_cases/: every .test file in it
    and its sub-folders (q2, q3, ...) is imported, and tests of other classes are skipped.
    Each test becomes OUTPUT/cs188-<its path>/ holding its tree file and exercise.yaml.
    Pacman's states are MAX nodes; the ghosts' are MIN nodes, or chance nodes with equally
    likely moves for an ExpectimaxAgent. One line per test says what became of it; problems
    and warnings go to standard error as file:line:column: message. The exit status is 1
    when a test could not be imported.
    """
    single = path.is_file()
    base = path.parent if single else path
    tests = [path] if single else sorted(path.rglob("*.test"))
    outcomes: list[_Outcome] = []
    taken: dict[str, str] = {}  # exercise folder -> the test written there in this run
    for test in tests:
        name = test.relative_to(base).as_posix()
        outcome = _import_one(test, name, output, force, taken, skip_other_classes=not single)
        click.echo(f"{name}{outcome.text}")
        outcomes.append(outcome)
    if not single:
        click.echo(_summary(outcomes))
    if any(not (outcome.imported or outcome.skipped) for outcome in outcomes):
        click.get_current_context().exit(1)


def _summary(outcomes: list[_Outcome]) -> str:
    imported = sum(outcome.imported for outcome in outcomes)
    skipped = sum(outcome.skipped for outcome in outcomes)
    text = f"imported {imported} of {len(outcomes) - skipped} game-tree tests"
    if skipped:
        text += f" ({skipped} other test{'s' if skipped > 1 else ''} skipped)"
    return text


def _import_one(
    test: Path,
    name: str,
    output: Path,
    force: bool,
    taken: dict[str, str],
    *,
    skip_other_classes: bool,
) -> _Outcome:
    """Import one test file and write its exercise folder (unless ``taken`` holds it)."""
    if skip_other_classes:
        try:
            kind = class_of(test.read_bytes().decode("utf-8", errors="replace"))
        except OSError as error:
            return _Outcome(f": not imported: cannot read it: {error.strerror or error}")
        if kind is not None and kind != GAME_TREE_CLASS:
            return _Outcome(f": skipped (class {kind!r} is not a game-tree test)", skipped=True)
    try:
        imported = import_file(test)
    except FileProblems as error:
        return _problems(error.problems)
    except OSError as error:
        return _Outcome(f": not imported: cannot read it: {error.strerror or error}")
    for warning in imported.warnings:
        where = f"{warning.file}:{warning.line}:{warning.column}"
        click.echo(f"{where}: warning: {warning.message}", err=True)
    try:
        result = imported.search()
    except SearchError as error:
        return _Outcome(f": not imported: {error}")
    solution_file = test.with_suffix(".solution")
    checked = solution_file.is_file()
    if checked:
        try:
            messages = check_solution(imported, import_solution(solution_file))
        except FileProblems as error:
            return _problems(error.problems)
        except OSError as error:
            return _Outcome(f": not imported: cannot read {solution_file}: {error.strerror}")
        if messages:
            return _Outcome(f": not imported: {'; '.join(messages)}")
    slug = SLUG_PREFIX + _slug(name.removesuffix(".test"))
    folder = output / slug
    if slug in taken:
        # Two names that differ only in case or punctuation: --force must not let the
        # second silently replace the first.
        return _Outcome(f": not imported: its exercise folder {slug} is {taken[slug]}'s")
    if (folder / EXERCISE_FILE).exists() and not force:
        return _Outcome(f": not imported: {folder} already exists (--force replaces it)")
    tree_name = _tree_name(test.stem)
    tree_file = f"{tree_name}.tree.yaml"
    document = exercise_document(imported, result, source=name, tree_name=tree_name)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / tree_file).write_text(render(imported.tree), encoding="utf-8")
        (folder / EXERCISE_FILE).write_text(_dump(document), encoding="utf-8")
    except OSError as error:
        return _Outcome(f": not imported: cannot write {folder}: {error.strerror or error}")
    taken[slug] = name
    verdict = "matches the solution" if checked else "no solution file to check"
    return _Outcome(f" -> {folder}: {_describe(imported, result)}; {verdict}", imported=True)


def _problems(problems: list[Problem]) -> _Outcome:
    for problem in problems:
        click.echo(str(problem), err=True)
    count = len(problems)
    return _Outcome(f": not imported ({count} problem{'s' if count != 1 else ''})")


def _describe(imported: Cs188Import, result: SearchResult) -> str:
    algorithm = result.algorithm
    if algorithm == "alphabeta":
        algorithm += " (strict pruning)"
    if imported.depth is None:
        depth = "no depth (the whole tree)"
    else:
        depth = (
            f"depth {imported.depth} x {imported.num_agents} agents "
            f"= depth limit {imported.cutoff_depth}"
        )
    return (
        f"{algorithm}, {depth}, {len(imported.tree)} nodes, "
        f"decision {result.decision}, value {format_value(result.value)}"
    )


def _slug(text: str) -> str:
    """A folder name the exercise loader accepts (lower-case letters, digits, '.', '-')."""
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or "test"


def _tree_name(stem: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.\-]+", "-", stem).lstrip("_.-")
    return name or "tree"


# --- exercise.yaml ------------------------------------------------------------------------


def exercise_document(
    imported: Cs188Import, result: SearchResult, *, source: str, tree_name: str
) -> dict[str, Any]:
    """The ``exercise.yaml`` of an imported test, as a mapping ready to dump: students
    hand in ``multiAgents.py`` as they write it for CS188 (the ``cs188`` contract, whose
    conventions are CS188's: the set of generated states is judged, not their order)."""
    contract: dict[str, Any] = {
        "name": "cs188",
        "agent_class": imported.agent,
        "agents": imported.num_agents,
    }
    if imported.depth is not None:
        contract["depth"] = imported.depth
    conventions: dict[str, Any] = {}
    if result.algorithm == "alphabeta":
        conventions["pruning"] = "strict"
    if imported.cutoff_depth is not None:
        conventions["depth_limit"] = imported.cutoff_depth
    visited = generated_states(result)
    expect: dict[str, Any] = {"value": _yaml_value(result.value)}
    if result.decision is not None:
        expect["decision"] = result.decision
    pruned = result.trace.pruned()
    if pruned:
        expect["pruned"] = pruned
    unvisited = [node.name for node in imported.tree if node.name not in visited]
    if unvisited:
        expect["unvisited"] = unvisited
    depth = "" if imported.depth is None else f", depth {imported.depth}"
    # A CS188 agent searches to its depth: the depth-limited algorithm where there is one
    # (the same search, and the library's known mistakes of depth-limited searches apply).
    algorithm = result.algorithm
    if imported.depth is not None and f"depth-limited-{algorithm}" in ALGORITHMS:
        algorithm = f"depth-limited-{algorithm}"
    return {
        "title": f"CS188 {source} ({imported.agent}{depth})",
        "algorithm": algorithm,
        "statement": _statement(imported, result, source),
        "contract": contract,
        "conventions": conventions,
        "trees": [{"name": tree_name, "file": f"{tree_name}.tree.yaml", "expect": expect}],
    }


def _statement(imported: Cs188Import, result: SearchResult, source: str) -> str:
    agents = imported.num_agents
    ghosts = "the ghost" if agents == 2 else f"the {agents - 1} ghosts"
    one = agents == 2
    if result.algorithm == "expectimax":
        ghost_rule = (
            f"{ghosts} {'moves' if one else 'move'} at random: each of "
            f"{'its' if one else 'their'} moves is equally likely"
        )
    else:
        ghost_rule = f"{ghosts} {'minimises' if one else 'minimise'}"
    paragraphs = [
        f"Imported from the Berkeley CS188 game-tree test `{source}` "
        f"({imported.agent}, {agents} agents).",
        f"Pacman (agent 0) maximises and moves first; {ghost_rule}. "
        "The agents move in turn, then Pacman again.",
    ]
    if imported.depth is not None:
        moves = "one move" if imported.depth == 1 else f"{imported.depth} moves"
        paragraphs.append(
            f"CS188's depth {imported.depth} is {moves} of every agent: the "
            f"search stops {imported.cutoff_depth} plies below the root and scores the states "
            "there by their evaluation. Win and lose states are scored wherever they are."
        )
    if result.algorithm == "alphabeta":
        paragraphs.append(
            "Prune as CS188 does: only when v > beta at a MAX node or v < alpha at a MIN "
            "node, never on equality."
        )
    paragraphs = [textwrap.fill(paragraph, width=88) for paragraph in paragraphs]
    diagram = imported.metadata.get("diagram", "")
    if diagram.strip():
        lines = [line.expandtabs().rstrip() for line in diagram.strip("\n").split("\n")]
        paragraphs.append("The test's diagram:\n\n" + "\n".join(f"    {line}" for line in lines))
    return "\n\n".join(paragraphs) + "\n"


def _yaml_value(value: int | float | Fraction) -> int | float | str:
    value = normalize(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return value


class _Dumper(yaml.SafeDumper):
    """Writes multi-line text as a literal block, as hand-written exercise files do."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_text)


def _dump(document: dict[str, Any]) -> str:
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
