"""Search traces: the ordered events of one reference search, enough to replay it.

Every search emits, for each node it visits, an :class:`Enter` event, then either an
:class:`Evaluate` event (a leaf's utility, or a heuristic at a cut-off) or, for each child
searched, that child's events followed by a :class:`Backup` event; a :class:`Cutoff` event
when the node stops early; and last a :class:`Return` event with the value it backs up.

Values and windows are from MAX's point of view, except in negamax searches, where they are
from the point of view of the player to move at the node (what a negamax function returns).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from reference.tree import Kind, Number
from reference.values import format_value


def _window(alpha: Number | None, beta: Number | None) -> str:
    if alpha is None or beta is None:
        return ""
    return f" alpha={format_value(alpha)} beta={format_value(beta)}"


@dataclass(frozen=True, slots=True)
class Enter:
    """The search entered ``node`` at ``depth``, with the window it was given (if any)."""

    node: str
    kind: Kind
    depth: int
    alpha: Number | None = None
    beta: Number | None = None

    def describe(self) -> str:
        """One line of text for this event."""
        return (
            f"enter {self.node} ({self.kind}, depth {self.depth}){_window(self.alpha, self.beta)}"
        )


@dataclass(frozen=True, slots=True)
class Evaluate:
    """``node`` was scored by its utility (a leaf) or its heuristic (a cut-off)."""

    node: str
    value: Number
    source: Literal["utility", "heuristic"]

    def describe(self) -> str:
        """One line of text for this event."""
        return f"evaluate {self.node}: {self.source} {format_value(self.value)}"


@dataclass(frozen=True, slots=True)
class Backup:
    """``node`` took in the value of ``child``; ``value`` is its running value after that."""

    node: str
    child: str
    child_value: Number
    value: Number
    alpha: Number | None = None
    beta: Number | None = None

    def describe(self) -> str:
        """One line of text for this event."""
        return (
            f"backup {self.node} <- {self.child} = {format_value(self.child_value)}: "
            f"v={format_value(self.value)}{_window(self.alpha, self.beta)}"
        )


@dataclass(frozen=True, slots=True)
class Cutoff:
    """``node`` stopped early because ``rule`` held (e.g. ``v >= beta`` with v=value, beta=bound).

    ``pruned`` names the children that were never searched.
    """

    node: str
    value: Number
    rule: str
    bound: Number
    pruned: tuple[str, ...]

    def describe(self) -> str:
        """One line of text for this event."""
        left, relation, right = self.rule.split(" ")
        return (
            f"cutoff {self.node}: {left}={format_value(self.value)} {relation} "
            f"{right}={format_value(self.bound)}, pruned {', '.join(self.pruned)}"
        )


@dataclass(frozen=True, slots=True)
class Return:
    """``node`` returned ``value`` to its parent (or as the root's value)."""

    node: str
    value: Number

    def describe(self) -> str:
        """One line of text for this event."""
        return f"return {self.node} = {format_value(self.value)}"


Event = Enter | Evaluate | Backup | Cutoff | Return


@dataclass(frozen=True, slots=True)
class Trace:
    """The ordered events of a search, with views that feedback and tests need."""

    events: tuple[Event, ...]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def visited(self) -> list[str]:
        """The nodes in the order the search entered them."""
        return [event.node for event in self.events if isinstance(event, Enter)]

    def evaluated(self) -> list[str]:
        """The nodes scored by utility or heuristic, in order."""
        return [event.node for event in self.events if isinstance(event, Evaluate)]

    def values(self) -> dict[str, Number]:
        """The value each visited node returned."""
        return {event.node: event.value for event in self.events if isinstance(event, Return)}

    def windows(self) -> dict[str, tuple[Number, Number]]:
        """The (alpha, beta) window each visited node was searched with, where there is one."""
        return {
            event.node: (event.alpha, event.beta)
            for event in self.events
            if isinstance(event, Enter) and event.alpha is not None and event.beta is not None
        }

    def cutoffs(self) -> list[Cutoff]:
        """The cut-offs, in order."""
        return [event for event in self.events if isinstance(event, Cutoff)]

    def pruned(self) -> list[str]:
        """The children cut off (each one root of a subtree that was never searched)."""
        return [name for cutoff in self.cutoffs() for name in cutoff.pruned]

    def lines(self) -> list[str]:
        """One line of text per event, indented by the depth of its node."""
        depth: dict[str, int] = {}
        out: list[str] = []
        for event in self.events:
            if isinstance(event, Enter):
                depth[event.node] = event.depth
            out.append("  " * depth.get(event.node, 0) + event.describe())
        return out
