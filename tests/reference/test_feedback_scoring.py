"""Scoring a tree and combining an exercise's trees; the values a node may return."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest

from reference.exercises.model import Scoring
from reference.feedback import Allowed, allowed_values, combine, judge, tree_score, true_values
from reference.feedback.verdicts import Verdict
from reference.search import search
from reference.tree import Edge, Kind, Node, Tree
from reference.treefile import parse_compact
from tests.reference.test_feedback import with_return
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


def big_minimax_tree(mins: int = 200, leaves: int = 99) -> Tree:
    """MAX over ``mins`` MIN nodes over ``leaves`` leaves each, every leaf worth 5."""
    nodes = [Node("A", Kind.MAX, tuple(Edge(f"a{i}", f"B{i}") for i in range(1, mins + 1)))]
    for i in range(1, mins + 1):
        children = tuple(Edge(f"b{i}.{j}", f"B{i}.{j}") for j in range(1, leaves + 1))
        nodes.append(Node(f"B{i}", Kind.MIN, children))
        nodes += [Node(f"B{i}.{j}", Kind.LEAF, utility=5) for j in range(1, leaves + 1)]
    return Tree("A", nodes)


def test_one_wrong_leaf_of_twenty_thousand_nodes_is_not_perfect() -> None:
    tree = big_minimax_tree()
    assert len(tree) > 20_000
    reference = search(tree, "minimax")
    minimax = Student(prune="never")
    right = judge(tree, reference, simulate(tree, minimax))
    assert right.perfect
    wrong = judge(tree, reference, with_return(simulate(tree, minimax), "B7.3", 9))
    assert [node.node for node in wrong.nodes if node.verdict is not Verdict.OK] == ["B7.3"]
    # One node in 20,001 costs less than the score's rounding step: the score is still the
    # maximum, the verdict is not.
    assert wrong.score == wrong.max_score
    assert not wrong.perfect
    assert combine([wrong]).perfect_trees == 0


def test_a_wrong_root_value_is_never_perfect_even_with_every_node_ok() -> None:
    tree = parse_compact(FIG52)
    feedback = judge(tree, search(tree, "alphabeta"), simulate(tree))
    assert feedback.perfect
    assert not dataclasses.replace(feedback, value_ok=False).perfect
    assert not dataclasses.replace(feedback, decision_ok=False).perfect
    assert dataclasses.replace(feedback, decision_ok=None).perfect


def test_trees_scored_as_a_whole_earn_all_or_nothing() -> None:
    tree = parse_compact(FIG52)
    reference = search(tree, "alphabeta")
    perfect = judge(tree, reference, simulate(tree))
    unpruned = judge(tree, reference, simulate(tree, Student(prune="never")))
    assert 0 < unpruned.score < 100
    # A hidden tree's points must not depend on how many of its nodes were wrong: that
    # would tell its size.
    assert combine([perfect, unpruned], whole=[False, True]).score == 50
    assert combine([unpruned, perfect], whole=[False, True]).score == pytest.approx(
        (unpruned.score + 100) / 2, abs=0.01
    )
    assert combine([perfect, unpruned, None], whole=[True, True, True]).score == 33.33
