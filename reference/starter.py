"""The starter file of an exercise: its statement, the game interface and the entry points
to write, with the parameters the harness calls them with."""

from __future__ import annotations

import textwrap

from reference.algorithms import ALGORITHMS
from reference.exercises.model import Exercise


def entry_parameters(exercise: Exercise) -> str:
    """The parameters every entry point of ``exercise`` receives, as written in Python."""
    parameters = "game, state"
    if ALGORITHMS[exercise.algorithm].windowed:
        parameters += ", alpha, beta"
    if exercise.options.depth_limit is not None:
        parameters += ", depth"
    return parameters


def starter_source(exercise: Exercise) -> str:
    """The starter file's text."""
    parameters = entry_parameters(exercise)
    lines = [
        f'"""{exercise.title}',
        "",
        *exercise.statement.strip().replace('"""', "'''").splitlines(),
        "",
        *textwrap.wrap(ALGORITHMS[exercise.algorithm].summary, 88),
        "",
        "The game: game.actions(state), game.result(state, action), game.terminal_test(state),",
        'game.utility(state, player) with player "MAX" or "MIN", game.to_move(state),',
        "game.successors(state), game.eval(state), game.chance_outcomes(state).",
        '"""',
        "",
        "import math",
    ]
    for name in exercise.entry_points:
        lines += ["", "", f"def {name}({parameters}):", "    raise NotImplementedError"]
    return "\n".join(lines) + "\n"
