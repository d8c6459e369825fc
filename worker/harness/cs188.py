"""Berkeley CS188's multi-agent contract: the student's ``multiAgents.py`` as handed out.

The question's agent class (``MinimaxAgent``, ``AlphaBetaAgent``, ``ExpectimaxAgent``) is
built as CS188's autograder builds it, with the exercise's depth, and its
``getAction(gameState)`` is called on the root. The game state it gets is
:class:`GameState`: CS188's interface over the exercise's tree, every method one request to
the trusted side, as the textbook's ``game`` is. ``generateSuccessor`` is recorded as the
generation of the state it returns, which is how CS188 counts a search's work.
"""

from __future__ import annotations

import types
from typing import Any

from worker.harness.game import Game, GameError, State


class GameState(State):
    """A state of the game tree, as CS188's ``GameState`` is used in a tree search.

    Agent 0 (Pacman) maximises; agents 1, 2, ... (the ghosts) move after it in turn. Who
    moves is the tree's: the agent index a search passes is not checked, as CS188's own
    game-tree tests do not check it."""

    __slots__ = ("_agents",)

    def __init__(self, token: str, game: Game | None, agents: int) -> None:
        super().__init__(token, game)
        self._agents = agents

    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        """The moves of the agent to move, in order (empty when the game is over)."""
        return self._play().actions(self)

    def generateSuccessor(self, agentIndex: int, action: str) -> GameState:
        """The state after ``action``."""
        if type(action) is not str:
            raise GameError(f"an action is a string, not {type(action).__name__}")
        game = self._play()
        return GameState(game._ask("generate", self, action), game, self._agents)

    def getNumAgents(self) -> int:
        """How many agents take turns: Pacman and the ghosts."""
        return self._agents

    def isWin(self) -> bool:
        """True when the game is over here (a terminal state of the tree)."""
        return self._play().terminal_test(self)

    def isLose(self) -> bool:
        """True when the game is over here (a terminal state of the tree)."""
        return self._play().terminal_test(self)

    def getScore(self) -> Any:
        """The state's score: its evaluation (a terminal state's value, or a state's
        heuristic value where the search stops at its depth)."""
        return self._play().eval(self)

    def getLegalPacmanActions(self) -> list[str]:
        return self.getLegalActions(0)

    def generatePacmanSuccessor(self, action: str) -> GameState:
        return self.generateSuccessor(0, action)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(
            f"GameState.{name} is not part of a game-tree test: a search here uses "
            "getLegalActions, generateSuccessor, getNumAgents, isWin, isLose and getScore"
        )

    def __repr__(self) -> str:
        return "<GameState>"


def agent_for(module: types.ModuleType, agent_class: str, depth: int | None) -> Any:
    """The agent of class ``agent_class`` of the student's module, built as CS188's
    autograder builds it (``depth`` given when the exercise has one)."""
    cls = getattr(module, agent_class, None)
    if not callable(cls):
        raise LookupError(f"missing class {agent_class}")
    return cls() if depth is None else cls(depth=depth)
