"""The vocabulary of feedback: verdicts, node feedback, the first divergence, a tree's result."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from itertools import repeat
from typing import Literal

from reference.feedback.values import Allowed
from reference.tree import Number


class Verdict(StrEnum):
    """What the student's search did at one node, compared with the reference search.

    When several apply, the first in this precedence wins:
    ``extra > repeated > out_of_order > missed > wrong_bounds > wrong_value > not_observed > ok``
    (``pruned`` only applies to a node neither search visited). Extra and missed are about
    whether a node was visited at all, so they come before anything said about how it was
    searched; a node searched twice or out of order gets wrong bounds as a consequence, so
    the cause is named rather than its symptom; and a value judged against a wrong window
    says little, so wrong bounds come before a wrong value.
    """

    OK = "ok"
    PRUNED = "pruned"
    EXTRA = "extra"
    MISSED = "missed"
    WRONG_VALUE = "wrong_value"
    WRONG_BOUNDS = "wrong_bounds"
    OUT_OF_ORDER = "out_of_order"
    REPEATED = "repeated"
    NOT_OBSERVED = "not_observed"


GOOD_VERDICTS = frozenset({Verdict.OK, Verdict.PRUNED, Verdict.NOT_OBSERVED})
"""The verdicts that earn a node's share of the points."""


Window = tuple[Number | None, Number | None]
"""(alpha, beta) as a search received them; None where a bound was not observed."""


@dataclass(frozen=True, slots=True)
class NodeFeedback:
    """The verdict on one node, with short texts and the raw numbers behind them.

    ``expected`` and ``actual`` are short texts (a value, an interval, a window, "visited");
    ``true_value`` is the node's full minimax / expectimax value (from the point of view of
    the player to move in negamax), ``allowed`` the values the node may return under the
    reference's window, ``returned`` what the student's function returned for it,
    ``window`` and ``received`` the reference's and the student's (alpha, beta).
    """

    node: str
    verdict: Verdict
    expected: str | None
    actual: str | None
    message: str
    true_value: Number | None = None
    allowed: Allowed | None = None
    returned: Number | None = None
    window: Window | None = None
    received: Window | None = None


_SETTERS = tuple(getattr(NodeFeedback, field.name).__set__ for field in fields(NodeFeedback))
"""The slots of :class:`NodeFeedback`, in the order of its fields, to be filled directly."""


ROWS_AT_ONCE = 4096
"""How many objects :func:`node_feedback_table` fills a field of before the next field:
few enough that they stay in the processor's cache from one field to the next."""


def node_feedback_table(*columns: Sequence[object]) -> tuple[NodeFeedback, ...]:
    """``NodeFeedback(*row)`` for each row of ``columns`` (one per field, in order).

    The same objects the constructor makes, made about three times as fast: a frozen
    class's constructor sets each field through ``object.__setattr__``, while here each
    field's slot is filled for a block of rows at once.
    """
    count = len(columns[0])
    assert len(columns) == len(_SETTERS) and all(len(column) == count for column in columns)
    made = list(map(object.__new__, repeat(NodeFeedback, count)))
    for start in range(0, count, ROWS_AT_ONCE):
        stop = start + ROWS_AT_ONCE
        block = made[start:stop]
        for setter, column in zip(_SETTERS, columns, strict=True):
            deque(map(setter, block, column[start:stop]), 0)
    return tuple(made)


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first point where the student's search departed from the reference.

    ``event`` is the index in ``Observed.events`` where it showed, or None when it showed
    only at the end (a node never visited, a wrong final answer).
    """

    node: str
    message: str
    event: int | None = None
    differs: Literal["alpha", "beta", "depth", "value"] | None = None
    """What differed first at the event: a bound the call on ``node`` received (the first
    of alpha, beta and depth), or the value it returned; None for the other causes (a
    node searched again, out of order, extra or missed ...)."""


@dataclass(frozen=True, slots=True)
class TreeFeedback:
    """Everything the grader says about one tree: per-node verdicts, the answer, the score.

    ``nodes`` are in the tree's preorder. ``value_ok`` and ``decision_ok`` are None when
    that part of the answer could not be observed (see :mod:`reference.feedback.scoring`).
    """

    nodes: tuple[NodeFeedback, ...]
    value_expected: Number
    value_actual: Number | None
    value_ok: bool | None
    decision_expected: str | None
    decision_actual: str | None
    decision_ok: bool | None
    first_divergence: Divergence | None
    score: float
    max_score: int
    evaluations_ok: bool | None = None
    """Whether the search's own count of static evaluations is right, where the course's
    functions return one (MIT 6.034); None elsewhere."""

    def node(self, name: str) -> NodeFeedback:
        """The feedback on the node called ``name``."""
        for feedback in self.nodes:
            if feedback.node == name:
                return feedback
        raise KeyError(name)

    def verdicts(self) -> dict[str, Verdict]:
        """Each node's verdict, by name, in preorder."""
        return {feedback.node: feedback.verdict for feedback in self.nodes}

    def counts(self) -> Counter[Verdict]:
        """How many nodes got each verdict."""
        return Counter(feedback.verdict for feedback in self.nodes)

    @property
    def perfect(self) -> bool:
        """True when every node's verdict is ok, pruned or not_observed and neither the
        root value nor the decision is wrong. Judged on the verdicts themselves, never on
        the rounded score: on a large tree one wrong node costs less than a rounding step."""
        if self.value_ok is False or self.decision_ok is False or self.evaluations_ok is False:
            return False
        good = GOOD_VERDICTS
        return all(feedback.verdict in good for feedback in self.nodes)
