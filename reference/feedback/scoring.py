"""Points for one tree, and an exercise's score over all its trees.

A tree earns ``Scoring.value`` points for a correct root value, ``Scoring.decision`` for a
correct decision and ``Scoring.nodes`` times the share of nodes whose verdict is ok, pruned
or not_observed. A part that cannot be observed is left out and the others are scaled up
to ``Scoring.total``, keeping their proportions: a search written as
``max_value``/``min_value`` returns a value but no decision (value and nodes count, 30 and
60 scaled to 100), the textbook decision function returns a decision but no value
(decision and nodes count, 10 and 60 scaled to 100).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from reference.exercises.model import Scoring
from reference.feedback.verdicts import GOOD_VERDICTS, TreeFeedback, Verdict

DIGITS = 2
"""Scores are rounded to hundredths of a point."""


def node_share(verdicts: Iterable[Verdict]) -> Fraction:
    """The share of nodes whose verdict earns points (1 for no nodes at all)."""
    good = total = 0
    for verdict in verdicts:
        total += 1
        good += verdict in GOOD_VERDICTS
    return Fraction(good, total) if total else Fraction(1)


def tree_score(
    scoring: Scoring,
    *,
    value_ok: bool | None,
    decision_ok: bool | None,
    share: Fraction,
) -> float:
    """One tree's points out of ``scoring.total``; None marks a part that was not observed."""
    earned = Fraction(scoring.nodes) * share
    available = scoring.nodes
    if value_ok is not None:
        available += scoring.value
        earned += scoring.value if value_ok else 0
    if decision_ok is not None:
        available += scoring.decision
        earned += scoring.decision if decision_ok else 0
    if available == 0:
        return 0.0
    return round(float(earned * scoring.total / available), DIGITS)


@dataclass(frozen=True, slots=True)
class ExerciseScore:
    """An exercise's score: every tree weighs the same, the result is out of ``max_score``."""

    score: float
    max_score: int
    trees: int
    perfect_trees: int


def combine(
    feedback: Iterable[TreeFeedback | None],
    scoring: Scoring | None = None,
    *,
    whole: Iterable[bool] | None = None,
) -> ExerciseScore:
    """The exercise score over its public and hidden trees.

    None stands for a tree the student's code produced no feedback for (a crash, a time
    limit, a tree not run): it scores 0. ``whole`` says, tree by tree, which trees are
    scored as a whole, all points for a perfect search and none otherwise (hidden trees:
    their points per node would tell their size). The sum of the trees' points is scaled
    to ``scoring.total``.
    """
    scoring = scoring or Scoring()
    flags = iter(whole) if whole is not None else None
    earned = 0.0
    possible = 0
    trees = perfect = 0
    for item in feedback:
        trees += 1
        as_whole = next(flags, False) if flags is not None else False
        if item is None:
            possible += scoring.total
            continue
        if as_whole:
            earned += scoring.total if item.perfect else 0
            possible += scoring.total
        else:
            earned += item.score
            possible += item.max_score
        perfect += item.perfect
    if possible == 0:
        return ExerciseScore(0.0, scoring.total, 0, 0)
    return ExerciseScore(
        round(earned * scoring.total / possible, DIGITS), scoring.total, trees, perfect
    )
