"""Scoring a tree and combining an exercise's trees; the values a node may return."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from reference.exercises.model import Scoring
from reference.feedback import Allowed, allowed_values, combine, judge, tree_score, true_values
from reference.search import search
from reference.treefile import parse_compact
from tests.reference.test_feedback_simulator import FIG52, Student, simulate


def test_all_parts_observed() -> None:
    score = tree_score(Scoring(), value_ok=True, decision_ok=False, share=Fraction(1, 2))
    assert score == 30 + 0 + 30


def test_an_unobserved_decision_scales_value_and_nodes_to_the_total() -> None:
    assert tree_score(Scoring(), value_ok=True, decision_ok=None, share=Fraction(1)) == 100
    assert tree_score(Scoring(), value_ok=False, decision_ok=None, share=Fraction(1)) == 66.67
    assert tree_score(Scoring(), value_ok=True, decision_ok=None, share=Fraction(0)) == 33.33


def test_the_decision_function_form_scores_decision_and_nodes() -> None:
    assert tree_score(Scoring(), value_ok=None, decision_ok=False, share=Fraction(1)) == 85.71


def test_a_custom_scoring() -> None:
    scoring = Scoring(value=50, decision=0, nodes=50)
    assert tree_score(scoring, value_ok=True, decision_ok=None, share=Fraction(1, 5)) == 60


def test_combine_weighs_every_tree_the_same_and_counts_missing_feedback_as_zero() -> None:
    tree = parse_compact(FIG52)
    reference = search(tree, "alphabeta")
    perfect = judge(tree, reference, simulate(tree))
    unpruned = judge(tree, reference, simulate(tree, Student(prune="never")))

    total = combine([perfect, unpruned, None])
    assert total.max_score == 100 and total.trees == 3 and total.perfect_trees == 1
    assert total.score == pytest.approx((100 + unpruned.score + 0) / 3, abs=0.01)
    assert combine([]).score == 0


def test_allowed_values_under_both_rules() -> None:
    inf = math.inf
    assert allowed_values(2, (3, inf)) == Allowed(2, 3)
    assert allowed_values(7, (-inf, 5)) == Allowed(5, 7)
    assert allowed_values(4, (3, 5)).exact
    assert allowed_values(3, (3, 5), prune_on_equality=False).exact
    assert allowed_values(2, (3, 5), prune_on_equality=False) == Allowed(2, 3, high_open=True)
    assert not Allowed(2, 3, high_open=True).contains(3)
    assert Allowed(2, 3).contains(3) and Allowed(2, 3).describe() == "[2, 3]"
    assert Allowed(5, 7, low_open=True).describe() == "(5, 7]"
    assert Allowed.exactly(Fraction(7, 3)).describe() == "7/3"


def test_huge_ints_and_floats_do_not_overflow() -> None:
    assert not Allowed.exactly(2.5).contains(10**400)
    assert Allowed(-math.inf, 3).contains(-(10**400))


def test_true_values_with_a_depth_limit_use_the_heuristic() -> None:
    tree = parse_compact("MAX[ MIN(4)[3 12 8] MIN(1)[2 4 6] ]")
    assert true_values(tree)["A"] == 3
    limited = true_values(tree, depth_limit=1)
    assert limited["A"] == 4 and "B1" not in limited
