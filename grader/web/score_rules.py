"""How an exercise's score is made, as its page tells a student before the first attempt:
a public tree's parts, what the hidden trees weigh and what a failed one earns by its
reason (the feedback page tells the same from the report's ``score_parts``)."""

from __future__ import annotations

from dataclasses import dataclass

from reference.exercises.model import Scoring
from reference.exercises.outline import Outline
from reference.feedback.scoring import hidden_weight
from reference.reporting.cases import reason_words
from reference.reporting.scores import hidden_credits


@dataclass(frozen=True, slots=True)
class ScoreRules:
    """An exercise's scoring with its counts of trees: ``hidden_weight`` is the hidden
    trees' share of the total, ``credits`` the points (out of ``scoring.total``) a failed
    one earns by each reason it may give (None: nothing, or no hidden trees)."""

    scoring: Scoring
    public: int
    hidden: int
    hidden_weight: float
    credits: dict[str, float] | None

    @property
    def per_tree(self) -> bool:
        """Every tree weighs the same."""
        return self.scoring.hidden_share == "per_tree"


def score_rules(outline: Outline) -> ScoreRules:
    """The scoring of the exercise ``outline`` holds, with its trees counted."""
    rules = outline.rules
    public, hidden = len(outline.trees), rules.hidden.count
    credits = hidden_credits(rules.scoring, reason_words(rules)) if hidden else None
    weight = hidden_weight(rules.scoring, public, hidden)
    return ScoreRules(rules.scoring, public, hidden, float(weight), credits)
