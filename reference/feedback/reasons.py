"""Why a failed hidden tree failed: one reason of a fixed few, the first that applies.

The report words it (:func:`reference.reporting.cases.hidden_reason`) and the score gives
it its credit (:mod:`reference.feedback.scoring`), both from the same :class:`Reason`, so a
hidden tree's score tells nothing its reason does not.
"""

from __future__ import annotations

from enum import IntEnum

from reference.feedback.verdicts import TreeFeedback, Verdict

SEARCH_MISTAKES = frozenset({Verdict.EXTRA, Verdict.MISSED, Verdict.REPEATED, Verdict.OUT_OF_ORDER})
"""Verdicts that say other nodes were searched than the reference's."""
VALUE_MISTAKES = frozenset({Verdict.WRONG_VALUE, Verdict.WRONG_BOUNDS})
"""Verdicts that say a node searched the right way returned or was given the wrong numbers."""


class Reason(IntEnum):
    """A failed hidden tree's reason, by its index in the fixed order (the first four are
    :data:`reference.reporting.cases.HIDDEN_REASONS`'s). Each one that is given tells that
    the ones before it did not apply: a reason further down tells more facts held."""

    ROOT_VALUE = 0
    """Wrong value at the root: nothing is known to be right."""
    NODES_SEARCHED = 1
    """Other nodes searched than the reference's: the root's value was right."""
    VALUES_BELOW = 2
    """Wrong values or bounds below the root: the value and the nodes searched were right."""
    DECISION = 3
    """Wrong decision: the value and every node's verdict were right."""
    EVALUATIONS = 4
    """Wrong count of static evaluations (MIT 6.034): the value and every node's verdict
    were right (checked before the decision, which was not wrong)."""


def reason_of(feedback: TreeFeedback) -> Reason:
    """The one reason a search judged ``feedback`` (not perfect) failed its hidden tree."""
    if feedback.value_ok is False:
        return Reason.ROOT_VALUE
    found = {node.verdict for node in feedback.nodes}
    if found & SEARCH_MISTAKES:
        return Reason.NODES_SEARCHED
    if found & VALUE_MISTAKES:
        return Reason.VALUES_BELOW
    if feedback.evaluations_ok is False and feedback.decision_ok is not False:
        return Reason.EVALUATIONS
    return Reason.DECISION
