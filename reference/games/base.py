"""The interface every rule-defined game implements (AIMA's ``Game``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import fields, is_dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from reference.games.options import OPTION_KEY, Option
from reference.tree import Kind, Number

S = TypeVar("S", bound=Hashable)
"""A game state: hashable and immutable, so equal states can be recognised."""

A = TypeVar("A")
"""A move in a game."""

Player = Literal[Kind.MAX, Kind.MIN]
"""Whose turn it is."""


class Game(ABC, Generic[S, A]):
    """A two-player, zero-sum game of perfect information, defined by its rules.

    Concrete games are frozen dataclasses whose fields are their options, each declared
    with :func:`reference.games.options.option`; constructing a game coerces every option
    to its canonical type and then calls :meth:`check`, so an invalid game cannot be
    built (``ValueError`` with a readable message). Utilities are from MAX's point of
    view: +1 when MAX has won, -1 when MAX has lost, 0 for a draw.
    """

    name: ClassVar[str] = ""
    """The name the game is registered under (set by ``register``)."""

    def __post_init__(self) -> None:
        for declared in self.options():
            value = getattr(self, declared.field)
            try:
                coerced = declared.type.coerce(value)
            except ValueError as error:
                raise ValueError(f"option {declared.name!r}: {error}") from None
            object.__setattr__(self, declared.field, coerced)
        self.check()

    @classmethod
    def options(cls) -> tuple[Option, ...]:
        """The game's options, in declaration order."""
        if not is_dataclass(cls):
            return ()
        declared: list[Option] = []
        for spec in fields(cls):
            if OPTION_KEY in spec.metadata:
                option_type, help_text, name = spec.metadata[OPTION_KEY]
                declared.append(
                    Option(name or spec.name, option_type, spec.default, help_text, spec.name)
                )
        return tuple(declared)

    def check(self) -> None:
        """Raise ValueError if the options, each valid on its own, do not fit together."""

    @abstractmethod
    def initial_state(self) -> S:
        """The state the game starts from (the root of its tree)."""

    @abstractmethod
    def to_move(self, state: S) -> Player:
        """The player whose turn it is in ``state``."""

    @abstractmethod
    def actions(self, state: S) -> Sequence[A]:
        """The legal moves in a non-terminal ``state``, in the game's documented order."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """The state after ``action`` is played in ``state``."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """True when the game is over in ``state``."""

    @abstractmethod
    def utility(self, state: S) -> int:
        """The value of a terminal ``state`` for MAX: +1 win, -1 loss, 0 draw."""

    def evaluate(self, state: S) -> Number | None:
        """A heuristic estimate of ``state`` for MAX, or None when the game has none."""
        return None

    @abstractmethod
    def describe(self, state: S) -> str:
        """A short human label of ``state``, such as "5-1-1" or "OOX/.X./OX."."""

    @abstractmethod
    def action_label(self, state: S, action: A) -> str:
        """A short label of ``action`` in ``state``, unique among the actions of ``state``."""


AnyGame = Game[Any, Any]
"""A game of any state and action types."""
