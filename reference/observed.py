"""What a student's search was seen to do: the trace the trusted side records.

The sandbox (or an in-process harness for trusted code) turns every game call the
student's code makes into a :class:`Visit`, and every call of a wrapped entry function
(``max_value``, ``min_value``, ``negamax``, ...) into a :class:`Call` and, when it returns,
a :class:`Return`. Where no entry function is wrapped (the decision-function form, course
contracts), a :class:`Return` records the value a function of the student's file returned
for a state, where the harness's rules count it as the node's (no :class:`Call` then).
Node names are the tree's own names: handles never leave the trusted side.
:mod:`reference.feedback` compares an :class:`Observed` with the reference trace.

The events are plain (not frozen) dataclasses: a big search records millions of them, and
a frozen dataclass costs twice as much to make. Only the trusted side makes them, and
nothing changes them once recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from reference.tree import Number

VISIT_METHODS = frozenset(
    {"terminal_test", "utility", "actions", "successors", "eval", "chance_outcomes", "to_move"}
)
"""Game methods that ask about a node itself, and so visit it. ``result`` only makes a
child's handle and is not a visit."""
GENERATE = "generate"
"""The method of the visit recorded for a state generated (CS188's ``generateSuccessor``,
a ``result`` that counts): a visit only where generating counts as reaching a node (see
:attr:`reference.feedback.geometry.Geometry.generated`); the request names the parent, the
visit the child."""


@dataclass(slots=True)
class Visit:
    """The student's code asked ``method`` about ``node``."""

    node: str
    method: str


@dataclass(slots=True)
class Call:
    """An entry function was called on ``node`` with these bounds / depth (None if absent),
    from ``line`` of the student's file (None: from elsewhere, such as the harness's call of
    the root, or not recorded)."""

    node: str
    function: str
    alpha: Number | None = None
    beta: Number | None = None
    depth: int | None = None
    line: int | None = None


class ValueProblem(StrEnum):
    """Why a returned object is not a usable value."""

    NONE = "returned None"
    NOT_A_NUMBER = "returned something that is not a number"
    NOT_FINITE = "returned NaN"
    RIGGED = "returned an object that pretends to be a number"
    TOO_LARGE = "returned an integer too large to be a game value"


@dataclass(slots=True)
class Return:
    """The entry function called on ``node`` returned ``value``.

    ``value`` is None when the returned object was not a plain finite number (or a
    ±infinity, which a search may legitimately return from an empty window); ``problem``
    then says what it was and ``shown`` is a short, safe description of it.
    """

    node: str
    function: str
    value: Number | None
    problem: ValueProblem | None = None
    shown: str = ""
    line: int | None = None
    """The line of the student's file the call that returned was made from, which
    received the value (None as for :attr:`Call.line`)."""


ObservedEvent = Visit | Call | Return


def event_line(event: ObservedEvent) -> int | None:
    """The line of the student's file an event was made from, where it was recorded."""
    return None if isinstance(event, Visit) else event.line


@dataclass(slots=True)
class Observed:
    """Everything recorded while the student's code searched one tree."""

    events: list[ObservedEvent] = field(default_factory=list)
    root_value: Number | None = None
    """What the top-level entry returned for the root (None if it did not return a number);
    in the decision-function form and course contracts, the first value a function of the
    student's file was seen to return for the root (see :mod:`worker.harness.observer`)."""
    root_problem: ValueProblem | None = None
    decision: str | None = None
    """The action chosen at the root, for the decision-function style (minmax_decision ...)."""
    decision_style: bool = False
    """True when the student's module used the textbook decision function with nested
    helpers (or a course contract's agent): then no entry function is wrapped, and a node's
    value is seen only where a function of the student's file returned it (a
    :class:`Return` recorded by the harness's rules, :mod:`worker.harness.observer`)."""
    claimed_evaluations: Number | None = None
    """How many static evaluations the search said it made, where the course's functions
    return that count (MIT 6.034); None elsewhere."""

    def visited(self) -> list[str]:
        """Nodes in the order of their first visit."""
        seen: dict[str, None] = {}
        for event in self.events:
            if isinstance(event, Visit):
                seen.setdefault(event.node, None)
        return list(seen)
