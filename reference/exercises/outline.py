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

from reference import games, yamldoc
from reference.budgets import PUBLIC_NODES
from reference.exercises.loader import _at, budget_spent, check_tree, read_exercise
from reference.exercises.model import (
    Exercise,
)
from reference.exercises.schema import TreeSchema
from reference.problems import Problem
from reference.search import SearchEngine

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
    rules, trees = read_exercise(folder, _outline_trees)
    return Outline(rules, tuple(trees))


def _outline_trees(
    entries: Sequence[tuple[int, TreeSchema]],
    algorithm: SearchEngine | None,
    folder: Path,
    root: yaml.Node,
    filename: str,
) -> tuple[list[TreeOutline], list[Problem]]:
    """The outline of each tree of ``entries`` (index in ``trees``, entry) and every
    problem found without expanding a game: a game is only built from its options."""
    trees: list[TreeOutline] = []
    problems: list[Problem] = []
    total = 0
    for index, entry in entries:
        entry_node, _ = yamldoc.locate(root, ["trees", index])
        spent = budget_spent(total, entry_node, filename)
        if spent is not None:
            problems.append(spent)
            continue
        if entry.game is not None:
            problems += _game_problems(entry, entry_node, filename)
            options_text = " ".join(f"{key}={value}" for key, value in entry.game.options.items())
            source = f"game {entry.game.name} {options_text}".strip()
            trees.append(TreeOutline(entry.name, source, None))
            continue
        found, found_problems = check_tree(
            entry, entry_node, algorithm, folder, filename, SEARCHED_NODES,
            max_nodes=PUBLIC_NODES - total,
        )  # fmt: skip
        problems += found_problems
        if found is not None:
            trees.append(TreeOutline(entry.name, found.source, len(found.tree)))
            total += len(found.tree)
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
