"""The ``game`` object a student's search receives, in the textbook's (AIMA) vocabulary.

Every method is one request to a :class:`~worker.harness.backend.Backend`: the trusted side
holds the tree and records what was asked. A state is an opaque handle; nothing about the
tree lives in the student's process beyond the answers it asked for.
"""

from __future__ import annotations

from typing import Any

from worker.harness.backend import Backend, Refusal


class GameError(ValueError):
    """The game refused a request (for example the utility of a state that is not terminal)."""


class State:
    """An opaque game state. Compare states with ``==``; their contents are not for reading.

    ``state.to_move`` asks the game whose turn it is, as ``game.to_move(state)`` does
    (aima-python's stochastic search reads it as an attribute)."""

    __slots__ = ("_game", "_token")

    def __init__(self, token: str, game: Game | None = None) -> None:
        self._token = token
        self._game = game

    @property
    def to_move(self) -> str:
        return self._play().to_move(self)

    def _play(self) -> Game:
        """The game this state belongs to (course contracts' states ask it themselves)."""
        if self._game is None:
            raise GameError("this state belongs to no game")
        return self._game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other._token == self._token

    def __hash__(self) -> int:
        return hash(self._token)

    def __repr__(self) -> str:
        return "<state>"


def token_of(state: object) -> str | None:
    """The handle of a state the student passes back, or None for anything else."""
    return state._token if isinstance(state, State) else None


class Game:
    """The game tree as the student's code sees it (aima-python's ``Game`` interface)."""

    __slots__ = ("_backend", "_labels", "_outcome_of", "_probabilities")

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._probabilities: dict[str, Any] = {}
        self._outcome_of: dict[str, State] = {}
        """The chance state each outcome came from (see :meth:`outcome`)."""
        self._labels: dict[str, tuple[str, ...]] = {}
        """The chance events of each chance state whose :meth:`chances` were asked."""

    def _ask(self, method: str, state: object, argument: str | None = None) -> Any:
        token = state._token if isinstance(state, State) else None  # token_of, inlined
        if token is None:
            raise GameError(
                f"game.{method} needs a state from the game, not {type(state).__name__}"
            )
        answer = self._backend.request(method, token, argument)
        if type(answer) is Refusal:
            raise GameError(answer.message)
        return answer

    def actions(self, state: object) -> list[str]:
        """The actions available in ``state``, in left-to-right order (empty when terminal)."""
        return list(self._ask("actions", state))

    def result(self, state: object, action: object) -> State:
        """The state that ``action`` leads to (asking this does not visit the child)."""
        if type(action) is not str:
            raise GameError(f"an action is a string, not {type(action).__name__}")
        return State(self._ask("result", state, action), self)

    def terminal_test(self, state: object) -> bool:
        """True when the game is over in ``state``."""
        return bool(self._ask("terminal_test", state))

    def utility(self, state: object, player: object) -> Any:
        """The value of a terminal ``state`` for ``player`` ("MAX" or "MIN")."""
        if player not in ("MAX", "MIN"):
            raise GameError(f"player must be 'MAX' or 'MIN', not {player!r}")
        return self._ask("utility", state, str(player))

    def to_move(self, state: object) -> str:
        """Whose turn it is in ``state``: "MAX", "MIN" or "CHANCE"."""
        return str(self._ask("to_move", state))

    def successors(self, state: object) -> list[tuple[str, State]]:
        """``(action, state)`` pairs for every action, in order."""
        return [(action, State(token, self)) for action, token in self._ask("successors", state)]

    def eval(self, state: object) -> Any:
        """The heuristic evaluation of ``state`` (for depth-limited search)."""
        return self._ask("eval", state)

    def chance_outcomes(self, state: object) -> list[tuple[str, Any]]:
        """``(action, probability)`` pairs of a chance state, in order."""
        return [(action, p) for action, p in self._ask("chance_outcomes", state)]

    # aima-python's StochasticGame names: a chance event is an action of a chance state.

    def chances(self, state: object) -> list[str]:
        """The chance events of a chance ``state``, in order (aima-python's ``chances``)."""
        outcomes = self.chance_outcomes(state)
        token = token_of(state)
        if token is not None:
            self._labels[token] = tuple(action for action, _ in outcomes)
        # Kept for every chance state asked so far, not the last one only: a search asks the
        # chances of the states below before it asks the probability of the next event here.
        self._probabilities.update(outcomes)
        return [action for action, _ in outcomes]

    def outcome(self, state: object, chance: object) -> State:
        """The state chance event ``chance`` leads to (aima-python's ``outcome``). Asked
        of an earlier outcome of the same chance state, it is that state's outcome: as in
        aima-python's dice games, where an outcome only sets the dice (its
        ``expect_minmax`` asks each chance of the previous outcome)."""
        token = token_of(state)
        origin = self._outcome_of.get(token) if token is not None else None
        if origin is not None and (
            chance not in self._labels.get(origin._token, ())
            or chance in self._labels.get(token or "", ())
        ):
            origin = None  # an event of this state itself, not of the one it came from
        base = origin if origin is not None else state
        reached = self.result(base, chance)
        if isinstance(base, State):
            self._outcome_of[reached._token] = base
        return reached

    def probability(self, chance: object) -> Any:
        """The probability of chance event ``chance``, of a chance state whose
        :meth:`chances` were asked (aima-python's ``probability``; an event's name is its
        action's, which names its state)."""
        if type(chance) is not str or chance not in self._probabilities:
            raise GameError(
                f"game.probability({chance!r}): ask game.chances(state) of its state first"
            )
        return self._probabilities[chance]

    def __repr__(self) -> str:
        return "<game>"
