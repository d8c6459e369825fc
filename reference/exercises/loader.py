"""Reading an exercise folder (``exercise.yaml`` and its tree files) into an :class:`Exercise`.

Every problem is reported with the file, line and column it comes from: schema errors,
tree-file errors, unknown games and bad options, expectations that name no node, and
expectations the reference search of their tree contradicts.
"""

from __future__ import annotations

import math
import re
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from reference import yamldoc
from reference.algorithms import ALGORITHMS
from reference.budgets import PUBLIC_NODES, policy_problems
from reference.exercises.model import (
    ENTRY_POINTS,
    Exercise,
    ExerciseTree,
    Expectation,
    HiddenTreePolicy,
    Limits,
    Scoring,
)
from reference.exercises.partial import readable_parts
from reference.exercises.schema import ExerciseSchema, ExpectSchema, TreeSchema
from reference.exercises.sources import tree_from_source
from reference.problems import FileProblems, Problem
from reference.search import SearchEngine, SearchError, SearchOptions
from reference.tree import Number, Tree
from reference.values import format_value

EXERCISE_FILE = "exercise.yaml"
SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")


TreeResult = TypeVar("TreeResult")
TreeCheck = Callable[
    [Sequence[tuple[int, TreeSchema]], "SearchEngine | None", Path, yaml.Node, str],
    tuple[list[TreeResult], list[Problem]],
]
"""Checks the trees of exercise.yaml's entries (index in ``trees``, entry) against the
reference search (None: it cannot be set up): what it makes of each, and every problem."""


def load_exercise(folder: str | Path) -> Exercise:
    """Load the exercise in ``folder``; raise FileProblems listing everything wrong with it."""
    rules, trees = read_exercise(folder, _check_trees)
    return replace(rules, trees=tuple(trees))


def read_exercise(
    folder: str | Path, check_trees: TreeCheck[TreeResult]
) -> tuple[Exercise, list[TreeResult]]:
    """The exercise in ``folder`` without its trees (``trees`` is empty) and what
    ``check_trees`` made of them; or FileProblems with every problem of exercise.yaml and
    of the trees (one never hides the other)."""
    folder = Path(folder)
    path = folder / EXERCISE_FILE
    filename = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FileProblems([Problem(filename, 1, 1, f"cannot read: {error.strerror}")]) from None
    root = yamldoc.compose(yamldoc.decode(data, filename), filename)
    if root is None:
        raise FileProblems([Problem(filename, 1, 1, "the exercise file is empty")])
    problems = yamldoc.duplicate_keys(root, filename)
    if not SLUG_PATTERN.match(folder.name):
        problems.append(
            Problem(
                filename,
                1,
                1,
                f"folder name {folder.name!r} is not a valid slug "
                "(lower-case letters, digits, '.', '-')",
            )
        )
    document = yamldoc.construct(root)
    try:
        schema = ExerciseSchema.model_validate(document)
    except ValidationError as error:
        problems += _schema_problems(error, root, filename)
        # The trees are checked all the same, so that an upload reports the problems of
        # its tree files with those of exercise.yaml rather than after they are fixed.
        algorithm, entries = readable_parts(document)
        problems += _search_problems(algorithm, root, filename)
        problems += check_trees(entries, _search(algorithm), folder, root, filename)[1]
        raise FileProblems(problems) from None
    contract = schema.contract.choice()
    options = schema.conventions.options(contract.contract)
    chosen = (schema.algorithm, options)
    problems += _search_problems(chosen, root, filename)
    problems += _policy_problems(schema, root, filename)
    entries = list(enumerate(schema.trees))
    trees, tree_problems = check_trees(entries, _search(chosen), folder, root, filename)
    problems += tree_problems
    if problems:
        raise FileProblems(problems)
    rules = Exercise(
        slug=folder.name,
        title=schema.title,
        statement=schema.statement,
        algorithm=schema.algorithm,
        options=options,
        entry_points=tuple(schema.entry_points or ENTRY_POINTS[schema.algorithm]),
        trees=(),
        contract=contract,
        limits=Limits(**schema.limits.model_dump()),
        scoring=Scoring(**schema.scoring.model_dump()),
        hidden=HiddenTreePolicy(**schema.hidden_trees.model_dump()),
        folder=folder,
    )
    return rules, trees


def _policy_problems(schema: ExerciseSchema, root: yaml.Node, filename: str) -> list[Problem]:
    """Why the hidden-tree policy does not fit the budgets (see :mod:`reference.budgets`),
    each at the key to change."""
    policy = schema.hidden_trees
    found = []
    for keys, message in policy_problems(policy.count, policy.max_depth, policy.max_branching):
        node, _ = yamldoc.locate(root, ["hidden_trees", *keys])
        found.append(_at(filename, node, f"hidden_trees: {message}"))
    return found


def _search(chosen: tuple[str, SearchOptions] | None) -> SearchEngine | None:
    """The reference search, or None when it cannot be set up (a problem said why)."""
    if chosen is None:
        return None
    try:
        return ALGORITHMS[chosen[0]].reference(chosen[1])
    except SearchError:
        return None


def _search_problems(
    chosen: tuple[str, SearchOptions] | None, root: yaml.Node, filename: str
) -> list[Problem]:
    """Why the chosen search cannot be set up with its conventions (a missing depth limit)."""
    if chosen is None:
        return []
    try:
        ALGORITHMS[chosen[0]].reference(chosen[1])
    except SearchError as error:
        node, _ = yamldoc.locate(root, ["algorithm"])
        return [_at(filename, node, str(error))]
    return []


def _check_trees(
    entries: Sequence[tuple[int, TreeSchema]],
    algorithm: SearchEngine | None,
    folder: Path,
    root: yaml.Node,
    filename: str,
) -> tuple[list[ExerciseTree], list[Problem]]:
    """The trees of ``entries`` (index in ``trees``, entry) and every problem found in them:
    one tree's problems never hide another's. Without ``algorithm``, what needs the
    reference search is not checked."""
    trees: list[ExerciseTree] = []
    problems: list[Problem] = []
    total = 0
    for index, entry in entries:
        entry_node, _ = yamldoc.locate(root, ["trees", index])
        spent = budget_spent(total, entry_node, filename)
        if spent is not None:
            problems.append(spent)
            continue
        found, found_problems = check_tree(
            entry, entry_node, algorithm, folder, filename, max_nodes=PUBLIC_NODES - total
        )
        problems += found_problems
        if found is not None:
            trees.append(found)
            total += len(found.tree)
    return trees, problems


def budget_spent(total: int, entry_node: yaml.Node, filename: str) -> Problem | None:
    """The problem of a tree entry that comes after ``total`` public nodes, when they
    spend the exercise's budget of public nodes (None while some is left)."""
    if total < PUBLIC_NODES:
        return None
    message = (
        f"the public trees before this one have {total:,} nodes, the budget of "
        f"{PUBLIC_NODES:,} public nodes in all: no node is left for this tree"
    )
    return _at(filename, entry_node, message)


def check_tree(
    entry: TreeSchema,
    entry_node: yaml.Node,
    algorithm: SearchEngine | None,
    folder: Path,
    filename: str,
    searched_nodes: int | None = None,
    *,
    max_nodes: int = PUBLIC_NODES,
) -> tuple[ExerciseTree | None, list[Problem]]:
    """The tree of one entry of exercise.yaml with its expectation, and every problem of
    it: its file or notation, a search that cannot run on it, expectations that name no
    node or that the reference search (of a tree of at most ``searched_nodes``, when
    given) contradicts. None when the tree itself cannot be read (or has more than
    ``max_nodes`` nodes)."""
    problems: list[Problem] = []
    try:
        tree, source = tree_from_source(entry, folder, entry_node, filename, max_nodes)
    except FileProblems as error:
        return None, error.problems  # no tree to hold the expectations against
    searchable = algorithm
    if algorithm is not None:
        try:
            algorithm.check(tree)
        except SearchError as error:
            problems.append(_at(filename, entry_node, str(error)))
            searchable = None
    expect, expect_problems = _expectation(entry, tree, entry_node, filename)
    problems += expect_problems
    if searched_nodes is None or len(tree) <= searched_nodes:
        problems += _mismatches(expect, searchable, tree, entry_node, filename)
    return ExerciseTree(entry.name, tree, source, expect), problems


def _at(filename: str, node: yaml.Node, message: str) -> Problem:
    line, column = yamldoc.position(node)
    return Problem(filename, line, column, message)


def parse_value(value: int | float | str) -> Number:
    """A stated value: a number, or a fraction written as text ("21/2")."""
    if isinstance(value, str):
        return Fraction(value.strip())
    return value


def _expectation(
    entry: TreeSchema, tree: Tree, entry_node: yaml.Node, filename: str
) -> tuple[Expectation, list[Problem]]:
    stated: ExpectSchema = entry.expect
    problems: list[Problem] = []

    def problem(key: str, message: str) -> None:
        node, _ = yamldoc.locate(entry_node, ["expect", key])
        problems.append(_at(filename, node, message))

    value: Number | None = None
    if stated.value is not None:
        try:
            value = parse_value(stated.value)
        except (ValueError, ZeroDivisionError):
            problem("value", f"expected value {stated.value!r} is not a number")
    decision = stated.decision
    actions = {edge.action for edge in tree.root.edges}
    if decision is not None and decision not in actions:
        problem("decision", f"decision {decision!r} is not an action of the root")
        decision = None
    named: dict[str, tuple[str, ...] | None] = {}
    for key in ("pruned", "unvisited"):
        names: list[str] | None = getattr(stated, key)
        unknown = [name for name in names or [] if name not in tree]
        if unknown:
            problem(key, f"{key} names nodes that are not in the tree: {', '.join(unknown)}")
        # A fact already wrong is left out of the comparison with the reference search,
        # which would only say the same thing again at the same place.
        named[key] = None if names is None or unknown else tuple(names)
    expectation = Expectation(
        value=value,
        decision=decision,
        pruned=named["pruned"],
        unvisited=named["unvisited"],
        nodes=stated.nodes,
        leaves_evaluated=stated.leaves_evaluated,
    )
    return expectation, problems


def _mismatches(
    expect: Expectation,
    algorithm: SearchEngine | None,
    tree: Tree,
    entry_node: yaml.Node,
    filename: str,
) -> list[Problem]:
    """A problem for every stated fact the reference search of ``tree`` contradicts.

    The search runs only when something it decides is stated: counting a tree's nodes
    needs none, and a large game tree may state nothing else. Without ``algorithm`` (it
    cannot search this tree, or exercise.yaml names none that works) only the count is
    checked.
    """
    problems: list[Problem] = []
    searcher = "the search" if algorithm is None else algorithm.name

    def mismatch(key: str, stated: object, actual: object) -> None:
        node, _ = yamldoc.locate(entry_node, ["expect", key])
        found = f"the tree has {actual}" if key == "nodes" else f"{searcher} gives {actual}"
        problems.append(_at(filename, node, f"expected {key} {stated}, but {found}"))

    if expect.nodes is not None and expect.nodes != len(tree):
        mismatch("nodes", expect.nodes, len(tree))
    searched = (expect.value, expect.decision, expect.pruned, expect.unvisited)
    if all(fact is None for fact in searched) and expect.leaves_evaluated is None:
        return problems
    if algorithm is None:
        return problems
    result = algorithm.run(tree)
    trace = result.trace
    if expect.value is not None and not _same(expect.value, result.value):
        mismatch("value", format_value(expect.value), format_value(result.value))
    if expect.decision is not None and expect.decision != result.decision:
        mismatch("decision", expect.decision, result.decision)
    if expect.pruned is not None and list(expect.pruned) != trace.pruned():
        mismatch("pruned", _names(expect.pruned), _names(trace.pruned()))
    if expect.unvisited is not None:
        visited = set(trace.visited())
        unvisited = [name for name in tree.nodes if name not in visited]
        if list(expect.unvisited) != unvisited:
            mismatch("unvisited", _names(expect.unvisited), _names(unvisited))
    evaluated = len(trace.evaluated())
    if expect.leaves_evaluated is not None and expect.leaves_evaluated != evaluated:
        mismatch("leaves_evaluated", expect.leaves_evaluated, evaluated)
    return problems


def _same(stated: Number, actual: Number) -> bool:
    if stated == actual:
        return True
    # A stated 0.1 and a computed 1/10 are the same value.
    return math.isclose(float(stated), float(actual), rel_tol=1e-9, abs_tol=1e-12)


def _names(names: Sequence[str]) -> str:
    return f"[{', '.join(names)}]"


def _schema_problems(error: ValidationError, root: yaml.Node, filename: str) -> list[Problem]:
    problems: dict[tuple[int, int], Problem] = {}
    for detail in error.errors():
        loc = [step for step in detail["loc"] if isinstance(step, int | str)]
        path = ".".join(str(step) for step in loc) or "the file"
        if detail["type"] == "extra_forbidden":
            parent, _ = yamldoc.locate(root, loc[:-1])
            node = yamldoc.key_node(parent, str(loc[-1])) or parent
            allowed = ", ".join(_allowed_keys(loc[:-1]))
            message = f"unknown key {loc[-1]!r} (allowed here: {allowed})"
        elif detail["type"] == "missing":
            node, _ = yamldoc.locate(root, loc[:-1])
            message = f"missing required key {loc[-1]!r}"
        else:
            node, _ = yamldoc.locate(root, loc)
            reason = str(detail["msg"]).removeprefix("Value error, ")
            message = f"{path}: {reason}"
        problem = _at(filename, node, message)
        problems.setdefault((problem.line, problem.column), problem)
    return list(problems.values())


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is not None:
        for argument in typing.get_args(annotation):
            found = _model_in(argument)
            if found is not None:
                return found
    return None


def _allowed_keys(loc: list[int | str]) -> list[str]:
    model: type[BaseModel] | None = ExerciseSchema
    for step in loc:
        if isinstance(step, int) or model is None:
            continue
        field = model.model_fields.get(step)
        model = None if field is None else _model_in(field.annotation)
    return list(model.model_fields) if model is not None else []
