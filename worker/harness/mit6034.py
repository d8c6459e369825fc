"""MIT 6.034's games-lab contract: the lab's search functions over its game-state object.

The lab's functions take an ``AbstractGameState`` and return ``(path, score, evaluations)``:
the best line of play from the state (a list of states), its score (from the maximizer's
point of view), and how many static evaluations the search made. :class:`AbstractGameState`
here is the lab's interface over the exercise's tree, every method one request to the
trusted side: ``get_snapshot()``, ``is_game_over()``, ``generate_next_states()``,
``get_endgame_score(is_current_player_maximizer)``, ``describe_previous_move()``. The
heuristic the depth-limited functions get is called as the lab calls it,
``heuristic_fn(snapshot, maximize)``, and asks the trusted side for the state's evaluation.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from typing import Any

from worker.harness.game import Game, GameError, State

FUNCTIONS = {
    "minimax": "minimax_endgame_search",
    "depth-limited-minimax": "minimax_search",
    "alphabeta": "minimax_search_alphabeta",
    "depth-limited-alphabeta": "minimax_search_alphabeta",
}
"""The lab's function for each algorithm the contract has."""


class Snapshot(State):
    """What ``get_snapshot()`` gives: the position a state stands for, opaque (the lab's
    heuristics receive it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<snapshot>"


class AbstractGameState(State):
    """A state of the game, as MIT 6.034's games lab presents one."""

    __slots__ = ("_move",)

    def __init__(self, token: str, game: Game | None, move: str | None = None) -> None:
        super().__init__(token, game)
        self._move = move

    def get_snapshot(self) -> Snapshot:
        """The position, for a heuristic."""
        return Snapshot(self._token, self._game)

    def is_game_over(self) -> bool:
        """True when the game is over here."""
        return self._play().terminal_test(self)

    def generate_next_states(self) -> list[AbstractGameState]:
        """The states the moves from here lead to, in order (none when the game is over)."""
        game = self._play()
        return [
            AbstractGameState(state._token, game, action) for action, state in game.successors(self)
        ]

    def describe_previous_move(self) -> str:
        """The move that led here ("none" at the state a search starts from)."""
        return "none" if self._move is None else self._move

    def get_endgame_score(self, is_current_player_maximizer: bool = True) -> Any:
        """The score of a state where the game is over, from the maximizer's point of view
        (whoever is to move there)."""
        game = self._play()
        if not game.terminal_test(self):
            raise ValueError("Only endgame states have endgame score defined.")
        return game.utility(self, "MAX")

    def restart(self) -> AbstractGameState:
        return self

    def copy(self) -> AbstractGameState:
        return self

    def wrap(self, snapshot: object) -> AbstractGameState:
        """The state of ``snapshot`` (one of this game's snapshots)."""
        if not isinstance(snapshot, State):
            raise GameError("wrap() takes a snapshot of this game")
        return AbstractGameState(snapshot._token, self._play())

    @property
    def snapshot(self) -> Snapshot:
        return self.get_snapshot()

    def __str__(self) -> str:
        return f"<AbstractGameState after {self.describe_previous_move()}>"

    __repr__ = __str__


def heuristic_for(game: Game) -> Callable[..., Any]:
    """The exercise's heuristic, as the lab's ``heuristic_fn(snapshot, maximize)``: the
    trusted side's evaluation of the state, from the maximizer's point of view."""

    def heuristic_fn(snapshot: object, maximize: object = True) -> Any:
        return game.eval(snapshot)

    return heuristic_fn


def search(
    module: types.ModuleType,
    algorithm: str,
    root: AbstractGameState,
    game: Game,
    depth_limit: int | None,
    maximize: bool,
) -> object:
    """Call the lab's function for ``algorithm`` on ``root`` the way the lab's tests do."""
    name = FUNCTIONS[algorithm]
    function = getattr(module, name, None)
    if not callable(function):
        raise LookupError(name)
    if algorithm == "minimax":
        return function(root, maximize=maximize)
    depth = math.inf if depth_limit is None else depth_limit
    heuristic = heuristic_for(game)
    if algorithm == "depth-limited-minimax":
        return function(root, heuristic_fn=heuristic, depth_limit=depth, maximize=maximize)
    return function(
        root, -math.inf, math.inf, heuristic_fn=heuristic, depth_limit=depth, maximize=maximize
    )


def read_answer(returned: object, root: AbstractGameState) -> tuple[object, str | None, object]:
    """The score, the move at the root and the count of static evaluations of a
    ``(path, score, evaluations)`` answer; raises TypeError, with the lab's words, for
    anything else."""
    if not isinstance(returned, tuple | list) or len(returned) != 3:
        raise TypeError(
            "the search must return a tuple (path, score, number of evaluations), "
            f"not {type(returned).__name__}"
        )
    path, score, evaluations = returned
    if not isinstance(path, tuple | list) or not path:
        raise TypeError("the path must be a list of states, from the state searched")
    move = None
    if len(path) > 1 and path[0] == root and isinstance(path[1], AbstractGameState):
        move = path[1]._move
    return score, move, evaluations
