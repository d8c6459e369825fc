"""The cheap check of an exercise folder: everything :func:`load_exercise` checks that
needs no game expanded and no large tree searched.

A game such as the full tic-tac-toe tree (half a million nodes) takes seconds to expand
and more to search: a web request checks the outline (exercise.yaml against its schema,
tree files and inline trees, game names and options) and leaves the full load to a worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from reference import games, yamldoc
from reference.exercises.loader import (
    EXERCISE_FILE,
    SLUG_PATTERN,
    _at,
    _expectation,
    _mismatches,
    _schema_problems,
    _search,
    _search_problems,
)
from reference.exercises.model import (
    ENTRY_POINTS,
    Exercise,
    HiddenTreePolicy,
    Limits,
    Scoring,
)
from reference.exercises.partial import readable_parts
from reference.exercises.schema import ExerciseSchema, TreeSchema
from reference.exercises.sources import tree_from_source
from reference.problems import FileProblems, Problem
from reference.search import Algorithm, SearchError

SEARCHED_NODES = 20_000
"""The largest tree file or inline tree whose stated facts (value, decision, pruned
nodes) the cheap check holds against the reference search (a hundredth of a second or
so); a larger one's are checked by the full load."""


@dataclass(frozen=True, slots=True)
class TreeOutline:
    """One public tree as exercise.yaml names it."""

    name: str
    source: str
    """Where it comes from: the tree file, "inline", or "game <name> <options>"."""
    nodes: int | None
    """Its size when known without expanding anything (None for a game)."""


@dataclass(frozen=True, slots=True)
class Outline:
    """An exercise without its trees: the rules a page states and a starter file needs."""

    rules: Exercise
    """Every fact of the exercise but its trees (``rules.trees`` is empty)."""
    trees: tuple[TreeOutline, ...]

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def statement(self) -> str:
        return self.rules.statement


def check_exercise(folder: str | Path) -> Outline:
    """The outline of the exercise in ``folder``; raise FileProblems listing what is wrong
    that can be found without expanding a game or searching a tree (the full load,
    :func:`load_exercise`, may find more)."""
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
        message = (
            f"folder name {folder.name!r} is not a valid slug "
            "(lower-case letters, digits, '.', '-')"
        )
        problems.append(Problem(filename, 1, 1, message))
    data = yamldoc.construct(root)
    try:
        schema = ExerciseSchema.model_validate(data)
    except ValidationError as error:
        # Every problem in one pass, as the full load reports them: the trees are checked
        # beside the schema's problems.
        problems += _schema_problems(error, root, filename)
        chosen, entries = readable_parts(data)
        problems += _search_problems(chosen, root, filename)
        problems += _outline_trees(entries, _search(chosen), folder, root, filename)[1]
        raise FileProblems(problems) from None
    options = schema.conventions.options()
    chosen = (schema.algorithm, options)
    problems += _search_problems(chosen, root, filename)
    entries = list(enumerate(schema.trees))
    trees, tree_problems = _outline_trees(entries, _search(chosen), folder, root, filename)
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
        limits=Limits(**schema.limits.model_dump()),
        scoring=Scoring(**schema.scoring.model_dump()),
        hidden=HiddenTreePolicy(**schema.hidden_trees.model_dump()),
        folder=folder,
    )
    return Outline(rules, tuple(trees))


def _outline_trees(
    entries: Sequence[tuple[int, TreeSchema]],
    algorithm: Algorithm | None,
    folder: Path,
    root: yaml.Node,
    filename: str,
) -> tuple[list[TreeOutline], list[Problem]]:
    """The outline of each tree of ``entries`` (index in ``trees``, entry) and every
    problem found without expanding a game: a game is only built from its options."""
    trees: list[TreeOutline] = []
    problems: list[Problem] = []
    for index, entry in entries:
        entry_node, _ = yamldoc.locate(root, ["trees", index])
        if entry.game is not None:
            problems += _game_problems(entry, entry_node, filename)
            options_text = " ".join(f"{key}={value}" for key, value in entry.game.options.items())
            source = f"game {entry.game.name} {options_text}".strip()
            trees.append(TreeOutline(entry.name, source, None))
            continue
        try:
            tree, source = tree_from_source(entry, folder, entry_node, filename)
        except FileProblems as error:
            problems += error.problems
            continue
        searchable = algorithm
        if algorithm is not None:
            try:
                algorithm.check(tree)
            except SearchError as error:
                problems.append(_at(filename, entry_node, str(error)))
                searchable = None
        expect, expect_problems = _expectation(entry, tree, entry_node, filename)
        problems += expect_problems
        if len(tree) <= SEARCHED_NODES:
            problems += _mismatches(expect, searchable, tree, entry_node, filename)
        trees.append(TreeOutline(entry.name, source, len(tree)))
    return trees, problems


def _game_problems(entry: TreeSchema, entry_node: yaml.Node, filename: str) -> list[Problem]:
    """An unknown game or bad options, found by building the game without expanding it."""
    assert entry.game is not None
    node, _ = yamldoc.locate(entry_node, ["game"])
    try:
        games.make_game(entry.game.name, **entry.game.options)
    except KeyError:
        known = ", ".join(games.GAMES)
        return [_at(filename, node, f"unknown game {entry.game.name!r} (known: {known})")]
    except (TypeError, ValueError) as error:
        return [_at(filename, node, f"game {entry.game.name!r}: {error}")]
    return []
