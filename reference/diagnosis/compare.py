"""Comparing two signatures of searches of the same tree, step by step.

Two steps agree when they are the same event on the same node, with the same window and
depth where both searches have one, and values that agree by the feedback's rules
(:mod:`reference.feedback.values`): the same value, or, outside the call's window, two
values on the same side of it, so that a fail-hard and a fail-soft search agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference.diagnosis.signature import Signature, Step, Value, View
from reference.feedback.values import at_most, same
from reference.tree import Number

ROOT = "the root"
"""The first difference of two searches that took the same steps but ended apart (another
decision, or one of them raised) where the root's name is not in their steps."""


@dataclass(frozen=True, slots=True)
class Agreement:
    """How far one search's signature agrees with another's on one tree."""

    agreeing: int
    """Steps that agree before the first that does not."""
    steps: int
    """The longer of the two signatures' steps."""
    first_difference: str | None
    """The node of the first step that differs (None: they agree)."""

    @property
    def matches(self) -> bool:
        """True when the two searches agree on every step and in how they ended."""
        return self.first_difference is None

    @property
    def share(self) -> float:
        """The share of steps that agree before the first that does not."""
        return 1.0 if self.steps == 0 else self.agreeing / self.steps


def _side(value: Number, window: tuple[Number, Number], prune_on_equality: bool) -> int:
    """-1 where the value fails low, 1 where it fails high, 0 inside the window (where only
    the true value will do): with AIMA's rule a value equal to a bound fails on it, with the
    strict rule it is inside (as :func:`reference.feedback.values.allowed_values` has it)."""
    alpha, beta = window
    if prune_on_equality:
        return -1 if at_most(value, alpha) else 1 if at_most(beta, value) else 0
    return (
        -1
        if value < alpha and not same(value, alpha)
        else 1
        if value > beta and not same(value, beta)
        else 0
    )


def values_agree(
    mine: Value, theirs: Value, window: tuple[Number, Number] | None, prune_on_equality: bool
) -> bool:
    """True when two returned values agree (an unknown value agrees with any)."""
    if mine is None or theirs is None:
        return True
    if isinstance(mine, str) or isinstance(theirs, str):
        return mine == theirs
    if same(mine, theirs):
        return True
    if window is None:
        return False
    side = _side(mine, window, prune_on_equality)
    return side != 0 and side == _side(theirs, window, prune_on_equality)


def _same_bound(mine: Number, theirs: Number) -> bool:
    return mine == theirs or same(mine, theirs)


def steps_agree(mine: Step, theirs: Step, prune_on_equality: bool) -> bool:
    """True when ``mine`` and ``theirs`` are the same step (see the module's docstring)."""
    if mine.event != theirs.event or mine.node != theirs.node:
        return False
    mine_window, their_window = mine.window, theirs.window
    if mine_window is not None and their_window is not None:
        alpha, beta = mine_window
        other_alpha, other_beta = their_window
        if not (_same_bound(alpha, other_alpha) and _same_bound(beta, other_beta)):
            return False
    if mine.depth is not None and theirs.depth is not None and mine.depth != theirs.depth:
        return False
    window = their_window or mine_window
    return values_agree(mine.value, theirs.value, window, prune_on_equality)


def agreement(
    mine: Signature, theirs: Signature, prune_on_equality: bool, view: View | None = None
) -> Agreement:
    """How far ``mine`` (the student's) agrees with ``theirs`` on one tree, in ``view``
    (by default ``mine``'s: what of the student's search could be seen).

    In the ``leaves`` view (a decision-style search shows only the nodes it scored and its
    decision) the scored nodes are compared, and ``mine``'s decision must be one of
    ``theirs``'s; in the ``surface`` view, the root's call, the nodes scored and the root's
    value. A decision-style ``theirs`` has no steps to compare with ``mine``'s.
    """
    view = mine.view if view is None else view
    if view != "steps":
        left, right = mine.seen(view), theirs.seen(view)
    elif theirs.decision_style:
        left, right = mine.steps, ()
    else:
        left, right = mine.steps, theirs.steps
    agreeing = 0
    for step, other in zip(left, right, strict=False):
        if not steps_agree(step, other, prune_on_equality):
            break
        agreeing += 1
    steps = max(len(left), len(right))
    if agreeing < steps:
        node = left[agreeing].node if agreeing < len(left) else right[agreeing].node
        return Agreement(agreeing, steps, node)
    ended_alike = mine.failed == theirs.failed and (
        view != "leaves" or bool(mine.decisions & theirs.decisions)
    )
    if not ended_alike:
        root = left[0].node if left and left[0].event == "enter" else ROOT
        return Agreement(agreeing, steps + 1, root)
    return Agreement(agreeing, steps, None)


def departure_share(student: Agreement, suspect: Agreement, between: Agreement) -> float | None:
    """How alike two searches of one tree are where they depart from the reference: None
    when neither departs (the tree says nothing of how alike their mistakes are); 1 when
    they search it alike; 0 when only one departs, or they depart at different steps or
    with different first steps; otherwise the share of the steps from the first departure
    on that agree before they part.

    ``student`` and ``suspect``: each search against the reference; ``between``: the
    student's against the suspect's (all three in the student's view).
    """
    if student.matches and suspect.matches:
        return None
    if between.matches:
        return 1.0
    if student.matches or suspect.matches or student.agreeing != suspect.agreeing:
        return 0.0
    departed = student.agreeing
    after = between.steps - departed
    if after <= 0:
        return 0.0
    return max(0, between.agreeing - departed) / after
