"""Where an exercise's trees come from: a tree file, an inline compact tree, or a game."""

from __future__ import annotations

from pathlib import Path

import yaml

from reference import games, progress, treefile, yamldoc
from reference.budgets import PUBLIC_NODES
from reference.exercises.schema import TreeSchema
from reference.games.expand import TooManyNodes
from reference.problems import FileProblems, Problem
from reference.tree import Tree


def tree_from_source(
    entry: TreeSchema,
    folder: Path,
    entry_node: yaml.Node,
    filename: str,
    max_nodes: int = PUBLIC_NODES,
) -> tuple[Tree, str]:
    """Build the tree an exercise entry describes, with a short text naming its source; a
    tree of more than ``max_nodes`` nodes is a problem found as soon as it grows past them
    (the exercise's budget of public nodes, :data:`reference.budgets.PUBLIC_NODES`)."""
    if entry.file is not None:
        return _from_file(entry.file, folder, entry_node, filename, max_nodes), entry.file
    if entry.tree is not None:
        node, _ = yamldoc.locate(entry_node, ["tree"])
        return _from_compact(entry.tree, node, filename, max_nodes), "inline"
    assert entry.game is not None
    game = entry.game
    node, _ = yamldoc.locate(entry_node, ["game"])
    try:
        with progress.doing(f"expanding tree {entry.name}"):
            tree = games.generate(
                game.name, max_depth=game.max_depth, max_nodes=max_nodes, **game.options
            )
    except KeyError:
        known = ", ".join(games.GAMES)
        message = f"unknown game {game.name!r} (known: {known})"
        raise FileProblems([_at(filename, node, message)]) from None
    except TooManyNodes:
        message = (
            f"game {game.name!r}: the tree has more than {max_nodes:,} nodes, more than the "
            f"public trees' budget of {PUBLIC_NODES:,} in all allows; set a smaller max_depth"
        )
        raise FileProblems([_at(filename, node, message)]) from None
    except (TypeError, ValueError) as error:
        raise FileProblems([_at(filename, node, f"game {game.name!r}: {error}")]) from None
    options = " ".join(f"{key}={value}" for key, value in game.options.items())
    return tree, f"game {game.name} {options}".strip()


def _at(filename: str, node: yaml.Node, message: str) -> Problem:
    line, column = yamldoc.position(node)
    return Problem(filename, line, column, message)


def _from_file(
    relative: str, folder: Path, entry_node: yaml.Node, filename: str, max_nodes: int
) -> Tree:
    node, _ = yamldoc.locate(entry_node, ["file"])
    path = (folder / relative).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise FileProblems([_at(filename, node, f"{relative!r} is outside the exercise folder")])
    if not path.is_file():
        raise FileProblems([_at(filename, node, f"tree file {relative!r} does not exist")])
    return treefile.load(path, max_nodes=max_nodes)


def _from_compact(text: str, node: yaml.Node, filename: str, max_nodes: int) -> Tree:
    try:
        return treefile.parse_compact(text, filename, max_nodes=max_nodes)
    except FileProblems as error:
        raise FileProblems(
            [treefile.shift_into_scalar(problem, node) for problem in error.problems]
        ) from None
