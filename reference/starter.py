"""The starter file of an exercise: its statement, the game interface and the entry points
to write, with the parameters the harness calls them with."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from types import MappingProxyType

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


def entry_text(exercise: Exercise) -> str:
    """What the grader calls in a student's file, as the exercise page says it."""
    contract = exercise.contract
    if contract.name == "cs188":
        depth = "" if contract.depth is None else f"depth={contract.depth}"
        return f"{contract.agent_class}({depth}).getAction(gameState)"
    if contract.name == "mit-6.034":
        return _MIT_SIGNATURES[exercise.algorithm]
    parameters = entry_parameters(exercise)
    return ", ".join(f"{name}({parameters})" for name in exercise.entry_points)


def starter_source(exercise: Exercise) -> str:
    """The starter file's text, as the exercise's course hands it out."""
    return _STARTERS[exercise.contract.name](exercise)


def _docstring(exercise: Exercise, interface: list[str]) -> list[str]:
    return [
        f'r"""{exercise.title}',
        "",
        *exercise.statement.strip().replace('"""', "'''").splitlines(),
        "",
        *textwrap.wrap(ALGORITHMS[exercise.algorithm].summary, 88),
        "",
        *interface,
        '"""',
    ]


def _cs188_starter(exercise: Exercise) -> str:
    """CS188's ``multiAgents.py`` as its handout starts a multi-agent search question."""
    agent = exercise.contract.agent_class or "MinimaxAgent"
    lines = _docstring(
        exercise,
        [
            "The game state: gameState.getLegalActions(agentIndex),",
            "gameState.generateSuccessor(agentIndex, action), gameState.getNumAgents(),",
            "gameState.isWin(), gameState.isLose(); self.evaluationFunction(gameState) scores a",
            "state, self.depth is the depth in moves of every agent. Agent 0 is Pacman.",
        ],
    )
    lines += [
        "",
        "import random",
        "",
        "import util",
        "from game import Agent, Directions",
        "from pacman import GameState",
        "",
        "",
        "def scoreEvaluationFunction(currentGameState: GameState):",
        "    return currentGameState.getScore()",
        "",
        "",
        "class MultiAgentSearchAgent(Agent):",
        '    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):',
        "        self.index = 0  # Pacman is always agent index 0",
        "        self.evaluationFunction = util.lookup(evalFn, globals())",
        "        self.depth = int(depth)",
        "",
        "",
        f"class {agent}(MultiAgentSearchAgent):",
        "    def getAction(self, gameState: GameState):",
        "        util.raiseNotDefined()",
    ]
    return "\n".join(lines) + "\n"


_MIT_SIGNATURES = {
    "minimax": "minimax_endgame_search(state, maximize=True)",
    "depth-limited-minimax": (
        "minimax_search(state, heuristic_fn=always_zero, depth_limit=INF, maximize=True)"
    ),
    "alphabeta": (
        "minimax_search_alphabeta(state, alpha=-INF, beta=INF, heuristic_fn=always_zero, "
        "depth_limit=INF, maximize=True)"
    ),
}
_MIT_SIGNATURES["depth-limited-alphabeta"] = _MIT_SIGNATURES["alphabeta"]
"""The games lab's function for each algorithm of the ``mit-6.034`` contract."""


def _mit_starter(exercise: Exercise) -> str:
    """The games lab's file, as it starts the function the exercise grades."""
    lines = _docstring(
        exercise,
        [
            "The state: state.get_snapshot(), state.is_game_over(),",
            "state.generate_next_states(), state.get_endgame_score(is_current_player_maximizer),",
            "state.describe_previous_move(); heuristic_fn(state.get_snapshot(), maximize).",
            "Return (path, score, number of static evaluations).",
        ],
    )
    lines += [
        "",
        "from game_api import *",
        "from boards import *",
        "from toytree import GAME1",
        "",
        'INF = float("inf")',
        "",
        "",
        f"def {_MIT_SIGNATURES[exercise.algorithm]}:",
        "    raise NotImplementedError",
    ]
    return "\n".join(lines) + "\n"


def _textbook_starter(exercise: Exercise) -> str:
    """The textbook's module-level entry functions."""
    parameters = entry_parameters(exercise)
    lines = _docstring(
        exercise,
        [
            "The game: game.actions(state), game.result(state, action), game.terminal_test(state),",
            'game.utility(state, player) with player "MAX" or "MIN", game.to_move(state),',
            "game.successors(state), game.eval(state), game.chance_outcomes(state).",
        ],
    )
    lines += ["", "import math"]
    for name in exercise.entry_points:
        lines += ["", "", f"def {name}({parameters}):", "    raise NotImplementedError"]
    return "\n".join(lines) + "\n"


_STARTERS: Mapping[str, Callable[[Exercise], str]] = MappingProxyType(
    {"textbook": _textbook_starter, "cs188": _cs188_starter, "mit-6.034": _mit_starter}
)
"""The starter file of each contract of :mod:`reference.contracts`, by its name."""
