"""Properties of the reference searches on random trees (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.search import SearchOptions, search
from reference.search.negamax import mover, sign
from reference.tree import Kind, Number, Tree
from tests.strategies import any_values, chance_trees, examples, game_trees

options = st.builds(
    SearchOptions,
    prune_on_equality=st.booleans(),
    order=st.sampled_from(["left-to-right", "right-to-left"]),
)


def true_values(tree: Tree) -> dict[str, Number]:
    """Expectiminimax values of every node, computed bottom-up independently of the engine."""
    values: dict[str, Number] = {}
    for node in reversed(list(tree)):  # reversed preorder: children before parents
        if node.is_leaf:
            assert node.utility is not None
            values[node.name] = node.utility
            continue
        children = [values[edge.child] for edge in node.edges]
        if node.kind is Kind.MAX:
            values[node.name] = max(children)
        elif node.kind is Kind.MIN:
            values[node.name] = min(children)
        else:
            values[node.name] = sum(
                edge.probability * values[edge.child]  # type: ignore[operator]
                for edge in node.edges
            )
    return values


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(item in it for item in short)


@given(game_trees())
def test_minimax_backs_up_the_true_value_of_every_node(tree: Tree) -> None:
    result = search(tree, "minimax")
    assert result.trace.values() == true_values(tree)
    assert result.trace.evaluated() == [leaf.name for leaf in tree.leaves()]


@given(game_trees(), options)
def test_alphabeta_root_value_equals_minimax(tree: Tree, opts: SearchOptions) -> None:
    assert search(tree, "alphabeta", opts).value == search(tree, "minimax", opts).value


@given(game_trees(), options)
def test_alphabeta_decision_leads_to_a_best_child(tree: Tree, opts: SearchOptions) -> None:
    result = search(tree, "alphabeta", opts)
    values = true_values(tree)
    if tree.root.is_leaf:
        assert result.decision is None
        return
    chosen = next(edge.child for edge in tree.root.edges if edge.action == result.decision)
    assert values[chosen] == values[tree.root.name]
    assert result.decision == search(tree, "minimax", opts).decision


@given(game_trees(), options)
def test_alphabeta_visits_a_subsequence_of_minimax_leaves(tree: Tree, opts: SearchOptions) -> None:
    pruned = search(tree, "alphabeta", opts).trace.evaluated()
    full = search(tree, "minimax", opts).trace.evaluated()
    assert is_subsequence(pruned, full)


@given(game_trees(), st.booleans())
def test_equality_rule_prunes_at_least_as_much_as_strict(tree: Tree, on_equality: bool) -> None:
    eq = search(tree, "alphabeta", SearchOptions(prune_on_equality=True)).trace.evaluated()
    strict = search(tree, "alphabeta", SearchOptions(prune_on_equality=False)).trace.evaluated()
    assert is_subsequence(eq, strict)


def assert_knuth_moore(window: tuple[Number, Number], v: Number, m: Number) -> None:
    alpha, beta = window
    if alpha < m < beta:
        assert v == m
    elif m <= alpha:
        assert m <= v <= alpha
    else:
        assert beta <= v <= m


@given(game_trees(), options)
def test_alphabeta_values_respect_the_knuth_moore_bounds(tree: Tree, opts: SearchOptions) -> None:
    trace = search(tree, "alphabeta", opts).trace
    truth = true_values(tree)
    returned = trace.values()
    for name, window in trace.windows().items():
        assert_knuth_moore(window, returned[name], truth[name])


def mover_values(tree: Tree) -> dict[str, Number]:
    truth = true_values(tree)
    return {
        node.name: sign(mover(node, tree.parent(node.name))) * truth[node.name] for node in tree
    }


@given(game_trees())
def test_negamax_equals_minimax_from_the_movers_view(tree: Tree) -> None:
    result = search(tree, "negamax")
    assert result.trace.values() == mover_values(tree)
    assert sign(mover(tree.root, None)) * result.value == search(tree, "minimax").value
    assert result.decision == search(tree, "minimax").decision


@given(game_trees(), options)
def test_negamax_alphabeta_agrees_with_alphabeta(tree: Tree, opts: SearchOptions) -> None:
    nega = search(tree, "negamax-alphabeta", opts)
    plain = search(tree, "alphabeta", opts)
    assert nega.trace.evaluated() == plain.trace.evaluated()
    assert sign(mover(tree.root, None)) * nega.value == plain.value
    truth = mover_values(tree)
    returned = nega.trace.values()
    for name, window in nega.trace.windows().items():
        assert_knuth_moore(window, returned[name], truth[name])


@settings(max_examples=examples(200))
@given(chance_trees())
def test_expectiminimax_equals_the_probability_weighted_values(tree: Tree) -> None:
    assert search(tree, "expectiminimax").trace.values() == true_values(tree)


@given(game_trees(kinds=(Kind.MAX, Kind.CHANCE), alternate=False, leaf_values=any_values))
def test_expectimax_equals_the_probability_weighted_values(tree: Tree) -> None:
    assert search(tree, "expectimax").value == true_values(tree)[tree.root.name]


@given(game_trees(heuristics=True), st.integers(min_value=0, max_value=6))
def test_depth_limited_minimax_scores_the_cutoff_by_heuristic(tree: Tree, limit: int) -> None:
    result = search(tree, "depth-limited-minimax", SearchOptions(depth_limit=limit))
    for name in result.trace.evaluated():
        node = tree[name]
        assert node.is_leaf or tree.depth(name) == limit
    if limit >= tree.height():
        assert result.value == search(tree, "minimax").value
