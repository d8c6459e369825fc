"""The total of a real grading: the public trees' mean and the hidden trees' credits under
the exercise's ``scoring.hidden_share``, a failed hidden tree earning by its reason alone."""

from __future__ import annotations

import dataclasses
from decimal import ROUND_HALF_UP, Decimal

from reference.exercises.model import Scoring
from reference.reporting.cases import HIDDEN_REASONS
from tests.worker.test_grading_trust import ALPHABETA, LIBRARY, graded, hidden

NEVER_RAISES_ALPHA = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(
    encoding="utf-8"
)
CREDIT = dict(zip(HIDDEN_REASONS, (0, 30, 60, 90), strict=True))
"""What a failed hidden tree earns by its reason under the default scoring (value 30,
decision 10, nodes 60): the value part, then half the node part, then all of it."""


def by_hand(*terms: tuple[str, float]) -> float:
    """A sum of (weight, points) worked by hand: exact, then rounded half up."""
    total = sum(Decimal(weight) * Decimal(str(points)) for weight, points in terms)
    return float(total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_a_search_that_never_raises_alpha_earns_half_by_its_public_tree_half_by_its_reasons() -> (
    None
):
    report = graded(NEVER_RAISES_ALPHA)
    public = report["cases"][0]
    reasons = [case["message"] for case in hidden(report)]
    assert [case["verdict"] for case in report["cases"]] == ["failed"] * 9
    assert public["score"] == 58.97
    # The development key fixes this draw's trees: on them the search fails by searching
    # other nodes (it prunes too little) or, where that shows only below, by its values.
    assert set(reasons) <= {HIDDEN_REASONS[1], HIDDEN_REASONS[2]}
    hidden_mean = sum(CREDIT[reason] for reason in reasons) / len(reasons)

    assert report["score"] == by_hand(("0.5", public["score"]), ("0.5", hidden_mean))
    parts = report["score_parts"]
    assert (parts["public"]["weight"], parts["hidden"]["weight"]) == (0.5, 0.5)
    assert parts["hidden"]["mean"] == hidden_mean
    assert round(parts["public"]["points"] + parts["hidden"]["points"], 2) == report["score"]
    assert parts["hidden_credit"] == {reason: float(credit) for reason, credit in CREDIT.items()}


def test_every_tree_weighing_the_same_and_hidden_trees_all_or_nothing_give_6_55() -> None:
    scoring = Scoring(hidden_share="per_tree", hidden_credit="whole")
    report = graded(NEVER_RAISES_ALPHA, dataclasses.replace(ALPHABETA, scoring=scoring))
    assert [case["verdict"] for case in report["cases"]] == ["failed"] * 9
    assert report["score"] == 6.55  # (1 x 58.97 + 8 x 0) / 9
    assert report["score_parts"]["hidden"]["points"] == 0
    assert "hidden_credit" not in report["score_parts"]
