"""Positions inside YAML scalars: a compact tree written as a YAML string keeps its problems
located in the enclosing file."""

from __future__ import annotations

from collections.abc import Callable

import yaml

from reference.problems import Problem
from reference.treefile.assemble import Position


def scalar_shift(node: yaml.Node, source: str | None = None) -> Callable[[Position], Position]:
    """Maps a (line, column) in the scalar's text to the same place in the file.

    Exact for single-line plain and quoted scalars, and for literal block scalars (``|``)
    when the file's ``source`` text is given. Where YAML folds lines, the problem is put at
    the start of the scalar's line.
    """
    start_line = node.start_mark.line + 1
    start_column = node.start_mark.column + 1
    style = getattr(node, "style", None)
    single_line = node.start_mark.line == node.end_mark.line
    plain = not style  # None from PyYAML's own loader, "" from libyaml's
    if (plain or style in ('"', "'")) and single_line:
        offset = start_column if plain else start_column + 1

        def inline(position: Position) -> Position:
            return start_line, offset + position[1] - 1

        return inline
    if style == "|" and source is not None:
        lines = source.splitlines()
        body = [text for text in lines[start_line:] if text.strip()]
        indent = len(body[0]) - len(body[0].lstrip(" ")) if body else 0

        def literal(position: Position) -> Position:
            return start_line + position[0], indent + position[1]

        return literal

    def folded(position: Position) -> Position:
        return start_line, start_column

    return folded


def shift_into_scalar(problem: Problem, node: yaml.Node, source: str | None = None) -> Problem:
    """``problem``, found in the text of the scalar ``node``, placed in the enclosing file."""
    line, column = scalar_shift(node, source)((problem.line, problem.column))
    return Problem(problem.file, line, column, problem.message)
