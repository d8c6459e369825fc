"""Scoring a tree and combining an exercise's trees; the values a node may return."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest

from reference.exercises.model import Scoring
from reference.feedback import (
    Allowed,
    TreeFeedback,
    allowed_values,
    combine,
    judge,
    tree_score,
    true_values,
)
from reference.feedback.reasons import Reason, reason_of
from reference.feedback.scoring import Share, hidden_credit
from reference.feedback.verdicts import Verdict
from reference.reporting.cases import hidden_reason
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


WHOLE = Scoring(hidden_share="per_tree", hidden_credit="whole")
"""The scoring before partial credit: every tree weighs the same, a hidden tree all or
nothing."""


def test_trees_scored_as_a_whole_earn_all_or_nothing() -> None:
    tree = parse_compact(FIG52)
    reference = search(tree, "alphabeta")
    perfect = judge(tree, reference, simulate(tree))
    unpruned = judge(tree, reference, simulate(tree, Student(prune="never")))
    assert 0 < unpruned.score < 100
    # A hidden tree's points must not depend on how many of its nodes were wrong: that
    # would tell its size.
    assert combine([perfect, unpruned], WHOLE, hidden=[False, True]).score == 50
    assert combine([unpruned, perfect], WHOLE, hidden=[False, True]).score == pytest.approx(
        (unpruned.score + 100) / 2, abs=0.01
    )
    assert combine([perfect, unpruned, None], WHOLE, hidden=[True, True, True]).score == 33.33


def perfect_fig52() -> TreeFeedback:
    tree = parse_compact(FIG52)
    return judge(tree, search(tree, "alphabeta"), simulate(tree))


def with_verdict(feedback: TreeFeedback, node: str, verdict: Verdict) -> TreeFeedback:
    nodes = tuple(
        dataclasses.replace(item, verdict=verdict) if item.node == node else item
        for item in feedback.nodes
    )
    return dataclasses.replace(feedback, nodes=nodes)


def failed_for(reason: Reason, wrong_nodes: tuple[str, ...] = ("B1",)) -> TreeFeedback:
    """A search of Figure 5.2 that fails for ``reason`` (at ``wrong_nodes``, where the
    reason is about nodes)."""
    feedback = perfect_fig52()
    if reason is Reason.ROOT_VALUE:
        return dataclasses.replace(feedback, value_ok=False)
    if reason in (Reason.NODES_SEARCHED, Reason.VALUES_BELOW):
        verdict = Verdict.EXTRA if reason is Reason.NODES_SEARCHED else Verdict.WRONG_VALUE
        for node in wrong_nodes:
            feedback = with_verdict(feedback, node, verdict)
        return feedback
    if reason is Reason.DECISION:
        return dataclasses.replace(feedback, decision_ok=False)
    return dataclasses.replace(feedback, evaluations_ok=False)


@pytest.mark.parametrize(
    ("reason", "credit"),
    [
        (Reason.ROOT_VALUE, 0),
        (Reason.NODES_SEARCHED, 30),
        (Reason.VALUES_BELOW, 30 + 30),
        (Reason.DECISION, 30 + 60),
        (Reason.EVALUATIONS, 30 + 60),
    ],
)
def test_a_failed_hidden_tree_earns_what_its_reason_tells_held(reason: Reason, credit: int) -> None:
    failed = failed_for(reason)
    assert reason_of(failed) is reason
    assert hidden_credit(reason, Scoring()) == credit
    # Alone, the hidden trees carry the whole score.
    assert combine([failed], hidden=[True]).score == credit
    assert combine([failed], Scoring(hidden_credit="whole"), hidden=[True]).score == 0


def test_the_credit_follows_the_reason_alone() -> None:
    scoring = Scoring(value=20, decision=15, nodes=65)
    assert [float(hidden_credit(reason, scoring)) for reason in Reason] == [0, 20, 52.5, 85, 85]
    # The same reason, however many nodes were wrong and whatever else held, earns the
    # same; a decision function, whose root value is not seen, too.
    for reason in (Reason.NODES_SEARCHED, Reason.VALUES_BELOW):
        one, many = failed_for(reason, ("B1",)), failed_for(reason, ("B1", "B2", "C", "D1"))
        unseen = dataclasses.replace(many, value_ok=None)
        assert one.counts() != many.counts()
        assert {reason_of(one), reason_of(many), reason_of(unseen)} == {reason}
        scores = {combine([item], scoring, hidden=[True]).score for item in (one, many, unseen)}
        assert scores == {float(hidden_credit(reason, scoring))}


def test_two_gradings_whose_hidden_trees_give_the_same_reasons_score_the_same() -> None:
    public = dataclasses.replace(perfect_fig52(), score=58.97, value_ok=False)
    first = [failed_for(Reason.NODES_SEARCHED, ("B1",)), failed_for(Reason.VALUES_BELOW), None]
    second = [
        failed_for(Reason.NODES_SEARCHED, ("B1", "B2", "B3", "C")),
        failed_for(Reason.VALUES_BELOW, ("D1", "D2")),
        None,
    ]
    told = [hidden_reason(item) for item in first[:2]]
    assert told == [hidden_reason(item) for item in second[:2]]
    hidden = [False, True, True, True]
    assert combine([public, *first], hidden=hidden) == combine([public, *second], hidden=hidden)


def test_one_public_tree_at_58_97_and_eight_hidden_ones_with_other_nodes_searched() -> None:
    public = dataclasses.replace(perfect_fig52(), score=58.97, value_ok=False)
    hidden = [failed_for(Reason.NODES_SEARCHED)] * 8
    flags = [False] + [True] * 8

    total = combine([public, *hidden], hidden=flags)
    # Half and half, a failed hidden tree earning the value part: 0.5 x 58.97 + 0.5 x 30,
    # 44.485, rounded half up as by hand.
    assert total.score == 44.49
    assert total.public == Share(trees=1, passed=0, mean=58.97, weight=0.5, points=29.49)
    assert total.hidden == Share(trees=8, passed=0, mean=30, weight=0.5, points=15)

    before = combine([public, *hidden], WHOLE, hidden=flags)
    assert before.score == 6.55  # (1 x 58.97 + 8 x 0) / 9
    assert before.public == Share(1, 0, 58.97, 1 / 9, 6.55)
    assert before.hidden == Share(8, 0, 0, 8 / 9, 0)


@pytest.mark.parametrize(("share", "expected"), [(0, 58.97), (1, 43.33), (0.25, 55.06)])
def test_the_hidden_share_from_0_to_1(share: float, expected: float) -> None:
    public = dataclasses.replace(perfect_fig52(), score=58.97, value_ok=False)
    hidden = [failed_for(Reason.NODES_SEARCHED), None, perfect_fig52()]
    total = combine(
        [public, *hidden], Scoring(hidden_share=share), hidden=[False, True, True, True]
    )
    # 0.25: 0.75 x 58.97 + 0.25 x (30 + 0 + 100) / 3 = 44.2275 + 10.8333... = 55.06
    assert total.score == expected
    assert total.hidden is not None and total.hidden.mean == 43.33
    assert total.public is not None
    assert round(total.public.points + total.hidden.points, 2) == total.score


def test_with_no_hidden_tree_the_public_ones_carry_everything_and_the_other_way() -> None:
    public = dataclasses.replace(perfect_fig52(), score=58.97, value_ok=False)
    alone = combine([public, public], Scoring(hidden_share=0.9), hidden=[False, False])
    assert alone.score == 58.97
    assert alone.public is not None and alone.public.weight == 1
    assert alone.hidden is not None and (alone.hidden.trees, alone.hidden.weight) == (0, 0)
    hidden_only = combine([failed_for(Reason.VALUES_BELOW)], Scoring(hidden_share=0), hidden=[True])
    assert hidden_only.score == 60
    assert hidden_only.hidden is not None and hidden_only.hidden.weight == 1
