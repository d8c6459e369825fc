"""Grundy's game: split one pile into two unequal piles; the player who cannot move loses."""

from __future__ import annotations

from dataclasses import dataclass

from reference.games.base import Game, Player
from reference.games.options import Integer, option
from reference.games.registry import register
from reference.tree import Kind

Piles = tuple[int, ...]
"""A state: the piles, largest first."""

Split = tuple[int, int]
"""A move: split a pile of ``size`` into ``larger`` and ``size - larger`` as (size, larger)."""


@register("grundy")
@dataclass(frozen=True)
class Grundy(Game[Piles, Split]):
    """Grundy's game from a single pile; MAX moves first.

    A move splits one pile into two non-empty piles of different sizes; the player who
    cannot move loses. Piles of equal size are interchangeable, so a move is named by the
    pile size and its split, "6+1"; moves come largest pile first, then largest part first
    (from 7: 6+1, 5+2, 4+3). Every move adds a pile, so the number of piles tells whose
    turn it is.
    """

    pile: int = option(7, Integer(1, 30), "the size of the starting pile")

    def initial_state(self) -> Piles:
        """A single pile."""
        return (self.pile,)

    def to_move(self, state: Piles) -> Player:
        """MAX when an even number of moves has been made."""
        return Kind.MAX if len(state) % 2 == 1 else Kind.MIN

    def actions(self, state: Piles) -> list[Split]:
        """Each distinct pile, largest first, split with the larger part first."""
        return [
            (size, larger)
            for size in sorted(set(state), reverse=True)
            for larger in range(size - 1, size // 2, -1)
        ]

    def result(self, state: Piles, action: Split) -> Piles:
        """The piles with one pile of ``size`` replaced by its two parts."""
        size, larger = action
        piles = list(state)
        piles.remove(size)
        return tuple(sorted([*piles, larger, size - larger], reverse=True))

    def is_terminal(self, state: Piles) -> bool:
        """True when every pile has 1 or 2 tokens (neither can be split unequally)."""
        return state[0] <= 2

    def utility(self, state: Piles) -> int:
        """The player to move cannot move, and loses."""
        return -1 if self.to_move(state) is Kind.MAX else 1

    def describe(self, state: Piles) -> str:
        """The piles, largest first: "5-1-1"."""
        return "-".join(map(str, state))

    def action_label(self, state: Piles, action: Split) -> str:
        """The two parts of the split pile: "6+1"."""
        size, larger = action
        return f"{larger}+{size - larger}"
