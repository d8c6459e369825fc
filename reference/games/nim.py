"""Nim (Fan-Tan): take matches from one compartment; normal or misère rule."""

from __future__ import annotations

from dataclasses import dataclass

from reference.games.base import Game, Player
from reference.games.options import Boolean, Integers, option
from reference.games.registry import register
from reference.tree import Kind

Counts = tuple[int, ...]

NimState = tuple[Counts, Player]
"""A state: the matches in each compartment (in their fixed order) and the player to move."""

Take = tuple[int, int]
"""A move: (compartment index from 0, number of matches taken)."""


@register("nim", "fantan")
@dataclass(frozen=True)
class Nim(Game[NimState, Take]):
    """Nim, also called Fan-Tan; MAX moves first.

    A move takes any positive number of matches from one compartment. Under the normal
    rule the player who takes the last match wins; under the misère rule that player
    loses. Moves come compartment by compartment, left to right, taking 1, 2, ... matches,
    labelled "take 2 from 2" (compartments counted from 1).
    """

    compartments: tuple[int, ...] = option(
        (1, 3), Integers(maximum=20, max_length=8), "the matches in each compartment"
    )
    misere: bool = option(False, Boolean(), "taking the last match loses (misère rule)")

    def check(self) -> None:
        """At least one match to take."""
        if not any(self.compartments):
            raise ValueError("option 'compartments': at least one compartment must hold a match")

    def initial_state(self) -> NimState:
        """The compartments as given, MAX to move."""
        return (self.compartments, Kind.MAX)

    def to_move(self, state: NimState) -> Player:
        """The player recorded in the state."""
        return state[1]

    def actions(self, state: NimState) -> list[Take]:
        """Every (compartment, count), compartments left to right, counts ascending."""
        counts, _ = state
        return [(index, k) for index, n in enumerate(counts) for k in range(1, n + 1)]

    def result(self, state: NimState, action: Take) -> NimState:
        """The counts with ``k`` matches removed from compartment ``index``; the other moves."""
        counts, player = state
        index, k = action
        after = (*counts[:index], counts[index] - k, *counts[index + 1 :])
        return (after, Kind.MIN if player is Kind.MAX else Kind.MAX)

    def is_terminal(self, state: NimState) -> bool:
        """True when every compartment is empty."""
        return not any(state[0])

    def utility(self, state: NimState) -> int:
        """The player to move did not take the last match: it lost (normal) or won (misère)."""
        mover_won = self.misere
        return 1 if (state[1] is Kind.MAX) == mover_won else -1

    def describe(self, state: NimState) -> str:
        """The counts in compartment order: "1-3"."""
        return "-".join(map(str, state[0]))

    def action_label(self, state: NimState, action: Take) -> str:
        """ "take 2 from 2": the count, then the compartment counted from 1."""
        index, k = action
        return f"take {k} from {index + 1}"
