"""Points for one tree, and an exercise's score over all its trees.

A tree earns ``Scoring.value`` points for a correct root value, ``Scoring.decision`` for a
correct decision and ``Scoring.nodes`` times the share of nodes whose verdict is ok, pruned
or not_observed. A part that cannot be observed is left out and the others are scaled up
to ``Scoring.total``, keeping their proportions: a search written as
``max_value``/``min_value`` returns a value but no decision (value and nodes count, 30 and
60 scaled to 100), the textbook decision function returns a decision but no value
(decision and nodes count, 10 and 60 scaled to 100), unless one of its helpers was seen to
return the root's value.

An exercise's total (:func:`combine`) gives its hidden trees ``Scoring.hidden_share`` of it
and its public trees the rest; a failed hidden tree earns, under ``partial`` credit, the
points of what its one reason tells held (:data:`CREDIT`), never more, so its score tells
nothing its reason does not.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from reference.exercises.model import Scoring
from reference.feedback.reasons import Reason, reason_of
from reference.feedback.verdicts import GOOD_VERDICTS, TreeFeedback, Verdict

DIGITS = 2
"""Scores are rounded to hundredths of a point."""


def node_share(verdicts: Iterable[Verdict]) -> Fraction:
    """The share of nodes whose verdict earns points (1 for no nodes at all)."""
    counts = Counter(verdicts)  # counted in C: a tree may have a million nodes
    total = sum(counts.values())
    good = sum(count for verdict, count in counts.items() if verdict in GOOD_VERDICTS)
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


CREDIT: Mapping[Reason, tuple[Fraction, Fraction]] = MappingProxyType(
    {
        # What each reason tells held, as the shares of ``Scoring.value`` and of
        # ``Scoring.nodes`` it earns: a reason is the first in a fixed order that applies,
        # so the ones before it did not.
        Reason.ROOT_VALUE: (Fraction(0), Fraction(0)),  # nothing known right
        Reason.NODES_SEARCHED: (Fraction(1), Fraction(0)),  # the root's value
        Reason.VALUES_BELOW: (Fraction(1), Fraction(1, 2)),  # value, the nodes searched
        Reason.DECISION: (Fraction(1), Fraction(1)),  # value, every node's verdict
        Reason.EVALUATIONS: (Fraction(1), Fraction(1)),  # value, every node's verdict
    }
)
"""A failed hidden tree's partial credit by its reason, and by nothing else (a decision
function, whose root value is not seen, earns the same by the same reason)."""


def hidden_credit(reason: Reason, scoring: Scoring) -> Fraction:
    """The points, out of ``scoring.total``, that a hidden tree failed for ``reason``
    earns: none under ``whole`` credit."""
    if scoring.hidden_credit == "whole":
        return Fraction(0)
    value, nodes = CREDIT[reason]
    return value * scoring.value + nodes * scoring.nodes


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
    """An exercise's score out of ``max_score``: ``public`` and ``hidden`` are the two
    shares that make it (their points add up to ``score``)."""

    score: float
    max_score: int
    trees: int
    perfect_trees: int
    public: Share | None = None
    hidden: Share | None = None


def hundredths(points: Fraction) -> float:
    """``points`` rounded half up to hundredths, as a sum worked by hand is."""
    return float(Fraction(math.floor(points * 10**DIGITS + Fraction(1, 2)), 10**DIGITS))


def _exact(score: float) -> Fraction:
    """A tree's score, rounded to hundredths, as the exact number shown."""
    return Fraction(round(score * 10**DIGITS), 10**DIGITS)


def hidden_weight(scoring: Scoring, public: int, hidden: int) -> Fraction:
    """The hidden trees' share of the total with ``public`` and ``hidden`` trees: the
    configured share, unless one kind has no tree (the other then carries it all);
    ``per_tree``: their count over all trees."""
    if hidden == 0:
        return Fraction(0)
    if public == 0:
        return Fraction(1)
    if scoring.hidden_share == "per_tree":
        return Fraction(hidden, public + hidden)
    return Fraction(str(scoring.hidden_share))


def combine(
    feedback: Iterable[TreeFeedback | None],
    scoring: Scoring | None = None,
    *,
    hidden: Iterable[bool] | None = None,
) -> ExerciseScore:
    """The exercise score over its public and hidden trees.

    None stands for a tree the student's code produced no feedback for (a crash, a time
    limit, a tree not run): it scores 0. ``hidden`` says, tree by tree, which trees are
    hidden (none when not given). A public tree counts its own score; a hidden tree all of
    ``scoring.total`` if its search is perfect, else the credit of its one reason
    (:func:`hidden_credit`; its points per node would tell its size). The public trees'
    mean and the hidden trees' mean are weighed by :func:`hidden_weight`.
    """
    scoring = scoring or Scoring()
    flags = iter(hidden) if hidden is not None else None
    # Per kind (False: public, True: hidden): trees, perfect trees, points.
    counts = {False: [0, 0], True: [0, 0]}
    points = {False: Fraction(0), True: Fraction(0)}
    for item in feedback:
        is_hidden = next(flags, False) if flags is not None else False
        counts[is_hidden][0] += 1
        if item is None:
            continue
        counts[is_hidden][1] += item.perfect
        if not is_hidden:
            points[False] += _exact(item.score)
        elif item.perfect:
            points[True] += scoring.total
        else:
            points[True] += hidden_credit(reason_of(item), scoring)
    trees = counts[False][0] + counts[True][0]
    perfect = counts[False][1] + counts[True][1]
    if trees == 0 or scoring.total == 0:
        return ExerciseScore(0.0, scoring.total, trees, perfect)
    means = {
        kind: points[kind] / counts[kind][0] if counts[kind][0] else Fraction(0) for kind in counts
    }
    weights = {True: hidden_weight(scoring, counts[False][0], counts[True][0])}
    weights[False] = 1 - weights[True]
    score = hundredths(weights[False] * means[False] + weights[True] * means[True])
    public = hundredths(weights[False] * means[False])

    def share(kind: bool, brought: float) -> Share:
        mean = hundredths(means[kind])
        return Share(counts[kind][0], counts[kind][1], mean, float(weights[kind]), brought)

    return ExerciseScore(
        score,
        scoring.total,
        trees,
        perfect,
        share(False, public),
        share(True, round(score - public, DIGITS)),
    )
