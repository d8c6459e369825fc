"""Points for one tree, and an exercise's score over all its trees.

A tree earns ``Scoring.value`` points for a correct root value, ``Scoring.decision`` for a
correct decision and ``Scoring.nodes`` times the share of nodes whose verdict is ok, pruned
or not_observed. A part that cannot be observed is left out and the others are scaled up
to ``Scoring.total``, keeping their proportions: a search written as
``max_value``/``min_value`` returns a value but no decision (value and nodes count, 30 and
60 scaled to 100), the textbook decision function returns a decision but no value
(decision and nodes count, 10 and 60 scaled to 100), unless one of its helpers was seen to
return the root's value.
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
class Part:
    """One part of a tree's score: points earned of those it may earn, once scaled, and the
    exercise's points for it before scaling (``weight``)."""

    earned: float
    possible: float
    weight: int


@dataclass(frozen=True, slots=True)
class TreeParts:
    """What makes a tree's score: the value and decision parts (None: not observed, left
    out) and the node part, ``good`` of ``counted`` nodes earning their share. The parts'
    ``earned`` add up to the score: the node part takes the rounding."""

    value: Part | None
    decision: Part | None
    nodes: Part
    good: int
    counted: int


def tree_parts(feedback: TreeFeedback, scoring: Scoring | None = None) -> TreeParts:
    """The parts of ``feedback``'s score (as :func:`tree_score` made it under ``scoring``)."""
    scoring = scoring or Scoring()
    good = counted = 0
    for node in feedback.nodes:
        counted += 1
        good += node.verdict in GOOD_VERDICTS
    available = scoring.nodes
    available += scoring.value if feedback.value_ok is not None else 0
    available += scoring.decision if feedback.decision_ok is not None else 0
    scale = Fraction(scoring.total, available) if available else Fraction(0)

    def part(weight: int, ok: bool | None) -> Part | None:
        if ok is None:
            return None
        possible = weight * scale
        return Part(
            round(float(possible if ok else 0), DIGITS), round(float(possible), DIGITS), weight
        )

    value = part(scoring.value, feedback.value_ok)
    decision = part(scoring.decision, feedback.decision_ok)
    answered = [found for found in (value, decision) if found is not None]
    earned = round(feedback.score - sum(found.earned for found in answered), DIGITS)
    possible = round(
        float(feedback.max_score if available else 0) - sum(found.possible for found in answered),
        DIGITS,
    )
    return TreeParts(value, decision, Part(earned, possible, scoring.nodes), good, counted)


@dataclass(frozen=True, slots=True)
class Share:
    """The public or the hidden trees' share of an exercise's score: ``trees`` trees,
    ``passed`` of them perfect, their ``mean`` score out of the maximum, their ``weight``
    in the total (a fraction of 1) and the ``points`` they bring to it."""

    trees: int
    passed: int
    mean: float
    weight: float
    points: float


@dataclass(frozen=True, slots=True)
class ExerciseScore:
    """An exercise's score: every tree weighs the same, the result is out of ``max_score``.
    ``public`` and ``hidden`` are the two shares that make it (their points add up to
    ``score``)."""

    score: float
    max_score: int
    trees: int
    perfect_trees: int
    public: Share | None = None
    hidden: Share | None = None


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
    to ``scoring.total``. The trees scored as a whole make the ``hidden`` share, the others
    the ``public`` one.
    """
    scoring = scoring or Scoring()
    flags = iter(whole) if whole is not None else None
    # Per share (False: public, True: hidden): trees, perfect trees, earned, possible.
    sums = {False: [0, 0, 0.0, 0], True: [0, 0, 0.0, 0]}
    for item in feedback:
        as_whole = next(flags, False) if flags is not None else False
        found = sums[as_whole]
        found[0] += 1
        if item is None:
            found[3] += scoring.total
            continue
        if as_whole:
            found[2] += scoring.total if item.perfect else 0
            found[3] += scoring.total
        else:
            found[2] += item.score
            found[3] += item.max_score
        found[1] += item.perfect
    trees = int(sums[False][0] + sums[True][0])
    perfect = int(sums[False][1] + sums[True][1])
    earned = sums[False][2] + sums[True][2]
    possible = sums[False][3] + sums[True][3]
    if possible == 0:
        return ExerciseScore(0.0, scoring.total, 0, 0)
    score = round(earned * scoring.total / possible, DIGITS)

    def share(hidden: bool, points: float) -> Share:
        count, passed, got, out_of = sums[hidden]
        mean = round(got * scoring.total / out_of, DIGITS) if out_of else 0.0
        return Share(int(count), int(passed), mean, out_of / possible, points)

    public = round(sums[False][2] * scoring.total / possible, DIGITS)
    return ExerciseScore(
        score,
        scoring.total,
        trees,
        perfect,
        share(False, public),
        share(True, round(score - public, DIGITS)),
    )
