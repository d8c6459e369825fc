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
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from reference import yamldoc
from reference.exercises.model import (
    ENTRY_POINTS,
    Exercise,
    ExerciseTree,
    Expectation,
    HiddenTreePolicy,
    Limits,
    Scoring,
)
from reference.exercises.schema import ExerciseSchema, ExpectSchema, TreeSchema
from reference.exercises.sources import tree_from_source
from reference.problems import FileProblems, Problem
from reference.search import ALGORITHMS, Algorithm, SearchError, SearchOptions
from reference.tree import Number, Tree
from reference.values import format_value

EXERCISE_FILE = "exercise.yaml"
SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")


def load_exercise(folder: str | Path) -> Exercise:
    """Load the exercise in ``folder``; raise FileProblems listing everything wrong with it."""
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
    try:
        schema = ExerciseSchema.model_validate(yamldoc.construct(root))
    except ValidationError as error:
        problems += _schema_problems(error, root, filename)
        raise FileProblems(problems) from None
    if problems:
        raise FileProblems(problems)
    return _build(schema, folder, root, filename)


def _build(schema: ExerciseSchema, folder: Path, root: yaml.Node, filename: str) -> Exercise:
    conventions = schema.conventions
    options = SearchOptions(
        prune_on_equality=conventions.pruning == "on-equality",
        order=conventions.order,
        depth_limit=conventions.depth_limit,
    )
    problems: list[Problem] = []
    try:
        algorithm = ALGORITHMS[schema.algorithm](options)
    except SearchError as error:
        node, _ = yamldoc.locate(root, ["algorithm"])
        problems.append(_at(filename, node, str(error)))
        raise FileProblems(problems) from None
    trees: list[ExerciseTree] = []
    for index, entry in enumerate(schema.trees):
        entry_node, _ = yamldoc.locate(root, ["trees", index])
        try:
            tree, source = tree_from_source(entry, folder, entry_node, filename)
        except FileProblems as error:
            problems += error.problems
            continue
        try:
            algorithm.check(tree)
        except SearchError as error:
            problems.append(_at(filename, entry_node, str(error)))
            continue
        expect, expect_problems = _expectation(entry, tree, entry_node, filename)
        problems += expect_problems or _mismatches(expect, algorithm, tree, entry_node, filename)
        trees.append(ExerciseTree(entry.name, tree, source, expect))
    if problems:
        raise FileProblems(problems)
    return Exercise(
        slug=folder.name,
        title=schema.title,
        statement=schema.statement,
        algorithm=schema.algorithm,
        options=options,
        entry_points=tuple(schema.entry_points or ENTRY_POINTS[schema.algorithm]),
        trees=tuple(trees),
        limits=Limits(**schema.limits.model_dump()),
        scoring=Scoring(**schema.scoring.model_dump()),
        hidden=HiddenTreePolicy(**schema.hidden_trees.model_dump()),
        folder=folder,
    )


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
    actions = {edge.action for edge in tree.root.edges}
    if stated.decision is not None and stated.decision not in actions:
        problem("decision", f"decision {stated.decision!r} is not an action of the root")
    for key in ("pruned", "unvisited"):
        names: list[str] | None = getattr(stated, key)
        unknown = [name for name in names or [] if name not in tree]
        if unknown:
            problem(key, f"{key} names nodes that are not in the tree: {', '.join(unknown)}")
    expectation = Expectation(
        value=value,
        decision=stated.decision,
        pruned=None if stated.pruned is None else tuple(stated.pruned),
        unvisited=None if stated.unvisited is None else tuple(stated.unvisited),
        nodes=stated.nodes,
        leaves_evaluated=stated.leaves_evaluated,
    )
    return expectation, problems


def _mismatches(
    expect: Expectation, algorithm: Algorithm, tree: Tree, entry_node: yaml.Node, filename: str
) -> list[Problem]:
    """A problem for every stated fact the reference search of ``tree`` contradicts.

    The search runs only when something it decides is stated: counting a tree's nodes
    needs none, and a large game tree may state nothing else.
    """
    problems: list[Problem] = []

    def mismatch(key: str, stated: object, actual: object) -> None:
        node, _ = yamldoc.locate(entry_node, ["expect", key])
        found = f"the tree has {actual}" if key == "nodes" else f"{algorithm.name} gives {actual}"
        problems.append(_at(filename, node, f"expected {key} {stated}, but {found}"))

    if expect.nodes is not None and expect.nodes != len(tree):
        mismatch("nodes", expect.nodes, len(tree))
    searched = (expect.value, expect.decision, expect.pruned, expect.unvisited)
    if all(fact is None for fact in searched) and expect.leaves_evaluated is None:
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
