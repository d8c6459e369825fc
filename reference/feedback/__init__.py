"""Feedback: compare what a student's search did with the reference search, node by node.

>>> feedback = judge(tree, exercise.reference(tree), observed)   # doctest: +SKIP
>>> feedback.verdicts()["C2"], feedback.first_divergence.message  # doctest: +SKIP

Every node of the tree gets one :class:`Verdict`; values are judged by alpha-beta
semantics (fail-soft and fail-hard answers both pass) against true values computed from
the tree; the first divergence explains, with the numbers, where the student's search
first left the reference's; :func:`combine` adds up an exercise's trees.
"""

from reference.feedback.judge import judge, node_feedback
from reference.feedback.scoring import ExerciseScore, combine, node_share, tree_score
from reference.feedback.values import Allowed, allowed_values, true_values
from reference.feedback.verdicts import (
    GOOD_VERDICTS,
    Divergence,
    NodeFeedback,
    TreeFeedback,
    Verdict,
    Window,
)
from reference.verdict_words import verdict_legend

__all__ = [
    "GOOD_VERDICTS",
    "Allowed",
    "Divergence",
    "ExerciseScore",
    "NodeFeedback",
    "TreeFeedback",
    "Verdict",
    "Window",
    "allowed_values",
    "combine",
    "judge",
    "node_feedback",
    "node_share",
    "tree_score",
    "true_values",
    "verdict_legend",
]
