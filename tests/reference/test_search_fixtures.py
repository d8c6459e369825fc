"""The reference searches against facts about textbook trees derived independently
(shared/FIXTURES.md): AIMA Figure 5.2, the pruning-rule tie, the deep cut-off, chance trees."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference.search import Cutoff, Enter, SearchError, SearchOptions, search
from reference.tree import Tree
from reference.treefile import parse_compact

AIMA = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"
STRICT = SearchOptions(prune_on_equality=False)
EQ = SearchOptions(prune_on_equality=True)


@pytest.fixture
def fig52() -> Tree:
    return parse_compact(AIMA)


def test_fig52_minimax_values_and_decision(fig52: Tree) -> None:
    result = search(fig52, "minimax")
    assert result.value == 3
    assert result.decision == "a1"
    values = result.trace.values()
    assert (values["B"], values["C"], values["D"]) == (3, 2, 2)


@pytest.mark.parametrize("options", [EQ, STRICT], ids=["eq", "strict"])
def test_fig52_alphabeta_prunes_c2_and_c3(fig52: Tree, options: SearchOptions) -> None:
    result = search(fig52, "alphabeta", options)
    assert result.value == 3
    assert result.decision == "a1"
    assert result.trace.evaluated() == ["B1", "B2", "B3", "C1", "D1", "D2", "D3"]
    windows = result.trace.windows()
    assert windows["B"] == (float("-inf"), float("inf"))
    assert windows["C"] == (3, float("inf"))
    assert windows["D"] == (3, float("inf"))
    [cutoff] = result.trace.cutoffs()
    assert cutoff == Cutoff("C", 2, cutoff.rule, 3, ("C2", "C3"))
    assert cutoff.rule == ("v <= alpha" if options.prune_on_equality else "v < alpha")
    assert result.trace.values()["D"] == 2


def test_fig52_right_to_left_prunes_nothing(fig52: Tree) -> None:
    result = search(fig52, "alphabeta", SearchOptions(order="right-to-left"))
    assert sorted(result.trace.evaluated()) == sorted(leaf.name for leaf in fig52.leaves())
    assert result.trace.evaluated()[0] == "D3"
    assert (result.value, result.decision) == (3, "a1")


def test_fig52_trace_replays_the_textbook_order(fig52: Tree) -> None:
    lines = search(fig52, "alphabeta").trace.lines()
    assert lines[0] == "enter A (MAX, depth 0) alpha=-inf beta=+inf"
    assert "  cutoff C: v=2 <= alpha=3, pruned C2, C3" in lines
    assert lines[-1] == "return A = 3"


def test_tie_separates_the_two_pruning_rules() -> None:
    tree = parse_compact("MAX[ MIN[10] MIN[10 0] ]")
    eq = search(tree, "alphabeta", EQ)
    strict = search(tree, "alphabeta", STRICT)
    assert eq.value == strict.value == 10
    assert "C2" not in eq.trace.evaluated()
    assert "C2" in strict.trace.evaluated()


def test_deep_cutoff_never_evaluates_x() -> None:
    tree = parse_compact("MAX[ A1=10 MIN[ B=20 MAX[ C=1 MIN[ D=4 X=2 ] ] ] ]", root_name="R")
    result = search(tree, "alphabeta")
    assert result.value == 10
    assert result.trace.evaluated() == ["A1", "B", "C", "D"]
    assert "X" not in result.trace.visited()


def test_negamax_on_fig52_matches_minimax(fig52: Tree) -> None:
    assert search(fig52, "negamax").value == 3
    nega = search(fig52, "negamax-alphabeta")
    assert nega.value == 3
    assert nega.trace.evaluated() == search(fig52, "alphabeta").trace.evaluated()
    # The MIN node C is searched with the negated window (-inf, -3).
    assert nega.trace.windows()["C"] == (float("-inf"), -3)
    assert nega.trace.values()["C"] == -2


def test_non_uniform_chance_decision_changes_with_rescaling() -> None:
    small = parse_compact("MAX[ CHANCE[0.9*2 0.1*3] CHANCE[0.9*1 0.1*4] ]")
    large = parse_compact("MAX[ CHANCE[0.9*20 0.1*30] CHANCE[0.9*1 0.1*400] ]")
    result = search(small, "expectimax")
    assert result.value == pytest.approx(2.1)
    assert result.decision == "a1"
    assert result.trace.values()["C"] == pytest.approx(1.3)
    result = search(large, "expectimax")
    assert result.value == pytest.approx(40.9)
    assert result.decision == "a2"
    assert result.trace.values()["B"] == pytest.approx(21)


def test_exact_probabilities_give_exact_expectations() -> None:
    tree = parse_compact("MAX[ CHANCE[1/2*8 1/3*24 1/6*-12] CHANCE[1/3*1 2/3*2] ]")
    result = search(tree, "expectimax")
    assert result.value == 10
    assert isinstance(result.value, int)
    assert result.trace.values()["C"] == Fraction(5, 3)


def test_minimax_refuses_chance_nodes() -> None:
    tree = parse_compact("MAX[ CHANCE[1/2*1 1/2*2] ]")
    with pytest.raises(SearchError, match="cannot search CHANCE node 'B'"):
        search(tree, "minimax")
    with pytest.raises(SearchError, match="cannot search MIN node"):
        search(parse_compact(AIMA), "expectimax")


def test_depth_limited_uses_the_heuristic_at_the_cutoff() -> None:
    tree = parse_compact("MAX[ MIN(4)[1 9] MIN(2)[7 8] ]")
    result = search(tree, "depth-limited-minimax", SearchOptions(depth_limit=1))
    assert result.value == 4
    assert result.trace.evaluated() == ["B", "C"]
    assert search(tree, "minimax").value == 7


def test_depth_limited_needs_a_limit_and_a_heuristic() -> None:
    with pytest.raises(SearchError, match="needs a depth limit"):
        search(parse_compact(AIMA), "depth-limited-minimax")
    with pytest.raises(SearchError, match="no heuristic value"):
        search(parse_compact(AIMA), "depth-limited-minimax", SearchOptions(depth_limit=1))


def test_frontier_nodes_are_scored_by_their_heuristic() -> None:
    tree = parse_compact("MAX[ MIN(5) MIN[1 2] ]")
    result = search(tree, "minimax")
    assert result.value == 5
    assert result.trace.evaluated() == ["B", "C1", "C2"]


def test_unknown_algorithm_names_the_known_ones(fig52: Tree) -> None:
    with pytest.raises(SearchError, match=r"unknown algorithm 'mcts'.*alphabeta"):
        search(fig52, "mcts")


def test_a_single_leaf_is_its_own_value() -> None:
    tree = parse_compact("7")
    for name in ("minimax", "alphabeta", "negamax", "negamax-alphabeta", "expectiminimax"):
        result = search(tree, name)
        assert (result.value, result.decision) == (7, None)


def test_deep_trees_search_without_recursion() -> None:
    depth = 5000
    text = "MAX[ " * depth + "1" + " ]" * depth
    tree = parse_compact(text)
    result = search(tree, "alphabeta")
    assert result.value == 1
    enters = [event for event in result.trace if isinstance(event, Enter)]
    assert enters[-1].depth == depth
