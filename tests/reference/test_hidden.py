"""Hidden trees: deterministic for (key, slug), secret without the key, shaped by the policy."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

from grader.config import Settings
from reference.contracts import hidden_layers
from reference.exercises import Exercise, HiddenTreePolicy, load_catalog, load_exercise
from reference.hidden import (
    DEVELOPMENT_KEY,
    LAYERS,
    LIBRARY_FOLDER,
    HiddenTree,
    build_pool,
    candidate_tree,
    catch_table,
    draw_hidden_trees,
    exercise_seed,
    hidden_trees,
    load_library,
    reference_judge,
    select_hidden_trees,
    shape_features,
    wrong_for,
)
from reference.hidden.generate import wide_width
from reference.naming import ROOT_NAME, action_labels, child_names
from reference.tree import Kind, Tree

CATALOG = load_catalog(Settings().exercises_dir)
SLUGS = CATALOG.slugs()
LIBRARY = load_library(Settings().exercises_dir / LIBRARY_FOLDER)
OTHER_KEY = b"another deployment's secret key"


def selected(exercise: Exercise, key: bytes = DEVELOPMENT_KEY) -> list[Tree]:
    """The hidden trees the service grades ``exercise`` with."""
    return hidden_trees(exercise, key, wrong_for(exercise, LIBRARY), reference_judge(exercise))


def with_policy(exercise: Exercise, **policy: object) -> Exercise:
    return dataclasses.replace(exercise, hidden=dataclasses.replace(exercise.hidden, **policy))


# -- determinism and secrecy ------------------------------------------------------------


def test_the_seed_is_an_hmac_of_the_slug_under_the_key() -> None:
    seed = exercise_seed(DEVELOPMENT_KEY, "aima-fig5.2-alphabeta")
    assert len(seed) == 32
    assert seed == exercise_seed(DEVELOPMENT_KEY, "aima-fig5.2-alphabeta")
    assert seed != exercise_seed(OTHER_KEY, "aima-fig5.2-alphabeta")
    assert seed != exercise_seed(DEVELOPMENT_KEY, "aima-fig5.2-minimax")
    assert seed != exercise_seed(DEVELOPMENT_KEY, "aima-fig5.2-alphabeta", "spring-2026")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_same_key_and_slug_give_the_same_trees(slug: str) -> None:
    # The same exercise loaded twice (two objects: nothing kept for one serves the other).
    reloaded = load_catalog(Settings().exercises_dir).get(slug)
    assert selected(reloaded) == selected(CATALOG.get(slug))


def test_another_key_gives_other_trees() -> None:
    exercise = CATALOG.get("aima-fig5.2-alphabeta")
    mine, theirs = selected(exercise), selected(exercise, OTHER_KEY)
    assert all(tree != other for tree, other in zip(mine, theirs, strict=True))


def test_another_slug_gives_other_trees() -> None:
    exercise = CATALOG.get("aima-fig5.2-alphabeta")
    renamed = dataclasses.replace(exercise, slug="aima-fig5.2-alphabeta-copy")
    first = [candidate_tree(exercise, DEVELOPMENT_KEY, index) for index in range(8)]
    second = [candidate_tree(renamed, DEVELOPMENT_KEY, index) for index in range(8)]
    assert all(tree != other for tree, other in zip(first, second, strict=True))


def test_the_policy_seed_draws_new_trees_for_the_same_exercise() -> None:
    exercise = CATALOG.get("aima-fig5.2-minimax")
    term = with_policy(exercise, seed="spring-2026")
    assert hidden_trees(exercise, DEVELOPMENT_KEY) != hidden_trees(term, DEVELOPMENT_KEY)


def test_each_candidate_depends_on_its_index_only() -> None:
    exercise = CATALOG.get("expectimax-dice")
    assert candidate_tree(exercise, DEVELOPMENT_KEY, 5) == candidate_tree(
        exercise, DEVELOPMENT_KEY, 5
    )
    assert candidate_tree(exercise, DEVELOPMENT_KEY, 5) != candidate_tree(
        exercise, DEVELOPMENT_KEY, 6
    )


# -- shape --------------------------------------------------------------------------------


def check_names(tree: Tree) -> None:
    """Names and actions are the textbook's: A; B, C, D; B1, B2 ...; a1, a2 ..."""
    assert tree.root.name == ROOT_NAME
    for node in tree:
        if node.is_leaf:
            continue
        count = len(node.edges)
        is_root = node.name == ROOT_NAME
        assert list(node.children) == child_names(node.name, count, parent_is_root=is_root)
        assert [edge.action for edge in node.edges] == action_labels(node.name, count)


def root_layers(exercise: Exercise, tree: Tree) -> tuple[Kind, ...]:
    """The exercise's layers (its contract's: CS188's have a layer per ghost), started from
    the root's kind (a tree may have a MIN root, except under a contract whose trees start
    with MAX)."""
    layers = hidden_layers(exercise.contract, LAYERS[exercise.algorithm])
    if exercise.contract.contract.max_root:
        assert tree.root.kind is Kind.MAX
    start = layers.index(tree.root.kind)
    return layers[start:] + layers[:start]


def leftmost_path(tree: Tree) -> list[str]:
    """The names of the nodes from the root down its first children."""
    path = [tree.root.name]
    while tree[path[-1]].edges:
        path.append(tree[path[-1]].edges[0].child)
    return path


def check_shape(exercise: Exercise, tree: Tree) -> None:
    policy = exercise.hidden
    assert policy.min_depth <= tree.height() <= policy.max_depth
    layers = root_layers(exercise, tree)
    depth_limited = exercise.options.depth_limit is not None
    wide = []
    for node in tree:
        depth = tree.depth(node.name)
        if node.is_leaf:
            assert node.utility is not None
            assert policy.min_value <= node.utility <= policy.max_value
            assert node.heuristic is None
            continue
        assert node.kind is layers[depth % len(layers)]
        assert 1 <= len(node.edges) <= max(policy.max_branching, wide_width(exercise))
        if len(node.edges) > policy.max_branching:
            wide.append(node)
    # One wide node, on the leftmost path (never pruned), its extra children leaves.
    assert len(wide) <= 1
    for node in wide:
        assert len(node.edges) == wide_width(exercise)
        assert node.name in leftmost_path(tree)
        extra = node.edges[policy.max_branching :]
        assert all(tree[edge.child].is_leaf for edge in extra)
        assert (node.heuristic is not None) == depth_limited
        if node.kind is Kind.CHANCE:
            probabilities = [edge.probability for edge in node.edges]
            assert all(isinstance(p, Fraction) for p in probabilities)
            assert sum(p for p in probabilities if p is not None) == 1
    assert len(tree.root.edges) >= min(2, policy.max_branching)
    check_names(tree)


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_trees_respect_the_policy(slug: str) -> None:
    exercise = CATALOG.get(slug)
    trees = selected(exercise)
    assert len(trees) == exercise.hidden.count == 8
    for tree in trees:
        check_shape(exercise, tree)
        exercise.reference(tree)  # the reference can search it
    features = set().union(*(shape_features(tree) for tree in trees))
    assert {"even-height", "odd-height", "negative", "tie"} <= features
    heights = {tree.height() for tree in trees}
    assert any(height % 2 for height in heights) and any(height % 2 == 0 for height in heights)


def test_leaves_stand_below_max_and_below_min() -> None:
    exercise = CATALOG.get("aima-fig5.2-minimax")
    parents = {
        tree.parent(leaf.name).kind  # type: ignore[union-attr]
        for tree in selected(exercise)
        for leaf in tree.leaves()
    }
    assert parents == {Kind.MAX, Kind.MIN}


def test_branching_covers_one_to_the_maximum() -> None:
    exercise = CATALOG.get("tictactoe-seed-alphabeta")
    counts = {
        len(node.edges)
        for index in range(20)
        for node in candidate_tree(exercise, DEVELOPMENT_KEY, index)
        if not node.is_leaf
    }
    # Up to max_branching, and the wide node's one more.
    assert counts == {1, 2, 3, 4, 5}


@pytest.mark.parametrize(
    "policy",
    [
        {"count": 3, "min_depth": 3, "max_depth": 3, "max_branching": 2},
        {"count": 5, "min_depth": 1, "max_depth": 6, "max_branching": 3},
        {"count": 4, "min_depth": 2, "max_depth": 4, "min_value": 0, "max_value": 3},
        {"count": 2, "max_branching": 1},
    ],
)
def test_other_policies_are_respected(policy: dict[str, int]) -> None:
    for slug in ("aima-fig5.2-alphabeta", "expectimax-dice", "tictactoe-depth2-heuristic"):
        exercise = with_policy(CATALOG.get(slug), **policy)
        trees = hidden_trees(exercise, DEVELOPMENT_KEY)
        assert len(trees) == exercise.hidden.count
        for tree in trees:
            check_shape(exercise, tree)


def cut_off_kinds(tree: Tree, limit: int) -> set[Kind]:
    """Who is to move at the states a search with ``limit`` scores by their evaluation."""
    return {node.kind for node in tree if node.edges and tree.depth(node.name) == limit}


def test_depth_limited_candidates_vary_the_root_and_the_cut_off_parity() -> None:
    exercise = CATALOG.get("tictactoe-depth2-heuristic")
    limit = exercise.options.depth_limit
    assert limit is not None
    trees = [candidate_tree(exercise, DEVELOPMENT_KEY, index) for index in range(12)]

    assert {tree.root.kind for tree in trees} == {Kind.MAX, Kind.MIN}
    assert {(tree.height() - limit) % 2 for tree in trees} == {0, 1}
    assert set().union(*(cut_off_kinds(tree, limit) for tree in trees)) == {Kind.MAX, Kind.MIN}
    for tree in trees:
        check_shape(exercise, tree)
        assert tree.height() > limit  # every tree has states to score at the cut-off


@pytest.mark.parametrize(
    ("slug", "kinds"),
    [
        ("aima-fig5.2-minimax", {Kind.MAX, Kind.MIN}),
        ("aima-fig5.2-negamax-alphabeta", {Kind.MAX, Kind.MIN}),
        ("expectiminimax-rescaling", {Kind.MAX, Kind.MIN}),
        ("expectimax-dice", {Kind.MAX}),
    ],
)
def test_a_few_candidates_have_both_players_at_the_root(slug: str, kinds: set[Kind]) -> None:
    exercise = CATALOG.get(slug)
    roots = {candidate_tree(exercise, DEVELOPMENT_KEY, index).root.kind for index in range(6)}
    assert roots == kinds


SCORES_MIN_CUT_OFFS_FROM_MINS_SIDE = """
import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return -game.eval(state)  # MIN is to move: scored from MIN's side
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
"""
"""A depth-limited search that goes wrong only where MIN is to move at the cut-off."""


def test_scoring_cut_off_states_from_the_wrong_side_at_min_is_caught() -> None:
    exercise = CATALOG.get("tictactoe-depth2-heuristic")
    fails = reference_judge(exercise)
    trees = selected(exercise)

    assert any(fails(SCORES_MIN_CUT_OFFS_FROM_MINS_SIDE, tree) for tree in trees)
    correct = next(item for item in LIBRARY if item.name == "depth-limited/correct_countdown")
    assert not any(fails(correct.path.read_text(), tree) for tree in trees)


def test_a_count_of_zero_means_no_hidden_trees() -> None:
    exercise = with_policy(CATALOG.get("aima-fig5.2-alphabeta"), count=0)
    assert hidden_trees(exercise, DEVELOPMENT_KEY) == []
    assert selected(exercise) == []


# -- selection ----------------------------------------------------------------------------


STAND_INS = {"odd": "odd", "wide": "wide", "never": "never"}
"""Stand-in wrong implementations: "odd" is caught by trees of odd height, "wide" by a root
with 4 children, "never" by nothing (see :func:`stand_in_fails`)."""


def stand_in_fails(source: str, tree: Tree) -> bool:
    if source == "odd":
        return tree.height() % 2 == 1
    if source == "wide":
        return len(tree.root.edges) == 4
    return False


def test_the_pool_judges_until_each_wrong_implementation_is_caught_often_enough() -> None:
    exercise = CATALOG.get("aima-fig5.2-minimax")
    wrong, fails = STAND_INS, stand_in_fails
    pool = build_pool(exercise, DEVELOPMENT_KEY, wrong, fails, budget=80, cover=3)
    assert pool.uncaught == ("never",)
    assert pool.tried == 80
    for name in ("odd", "wide"):
        assert sum(name in catcher.catches for catcher in pool.catchers) == 3
    assert all(catcher.catches for catcher in pool.catchers)
    assert all(
        all(fails(name, catcher.tree) for name in catcher.catches) for catcher in pool.catchers
    )


def test_a_draw_catches_what_the_pool_catches_then_fills_up_with_fresh_trees() -> None:
    exercise = CATALOG.get("aima-fig5.2-minimax")
    wrong, fails = STAND_INS, stand_in_fails
    selection = select_hidden_trees(exercise, DEVELOPMENT_KEY, wrong, fails, budget=40)
    assert selection.uncaught == ("never",)
    assert len(selection.trees) == 8
    assert [hidden.name for hidden in selection.trees] == [f"hidden-{i}" for i in range(1, 9)]
    trees = [hidden.tree for hidden in selection.trees]
    assert any(fails("odd", tree) for tree in trees)
    assert any(fails("wide", tree) for tree in trees)
    catchers = [hidden for hidden in selection.trees if hidden.catcher is not None]
    assert 1 <= len(catchers) <= 2
    table = catch_table(selection.trees, wrong, fails)
    assert table.uncaught() == ["never"]
    lines = table.lines()
    assert lines[0].split() == ["implementation", *(f"hidden-{i}" for i in range(1, 9))]
    never = next(line for line in lines if line.startswith("never"))
    assert never.endswith("UNCAUGHT") and "x" not in never


def test_the_pool_stops_judging_an_implementation_caught_often_enough() -> None:
    exercise = CATALOG.get("aima-fig5.2-minimax")
    calls: list[str] = []

    def fails(source: str, tree: Tree) -> bool:
        calls.append(source)
        return True

    pool = build_pool(exercise, DEVELOPMENT_KEY, {"a": "a", "b": "b"}, fails, cover=2)
    assert pool.tried == 2 and pool.uncaught == ()
    assert calls == ["a", "b", "a", "b"]


def test_a_draw_never_exceeds_the_count() -> None:
    exercise = with_policy(CATALOG.get("aima-fig5.2-minimax"), count=1)
    wrong = {"odd": "odd", "even": "even"}

    def fails(source: str, tree: Tree) -> bool:
        return tree.height() % 2 == (1 if source == "odd" else 0)

    selection = select_hidden_trees(exercise, DEVELOPMENT_KEY, wrong, fails)
    assert len(selection.trees) == 1
    assert len(selection.uncaught) == 1


# -- a draw per grading -------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_every_draw_catches_every_wrong_implementation(slug: str) -> None:
    exercise = CATALOG.get(slug)
    wrong = wrong_for(exercise, LIBRARY)
    fails = reference_judge(exercise)
    pool = build_pool(exercise, DEVELOPMENT_KEY, wrong, fails)
    assert pool.uncaught == ()
    for draw in ("submission-1", "submission-2", "submission-3"):
        trees = draw_hidden_trees(exercise, DEVELOPMENT_KEY, pool, draw)
        assert len(trees) == exercise.hidden.count
        for name, source in wrong.items():
            assert any(fails(source, hidden.tree) for hidden in trees), (draw, name)


def test_a_draw_is_reproduced_by_its_name_and_differs_from_other_draws() -> None:
    exercise = CATALOG.get("aima-fig5.2-alphabeta")
    pool = build_pool(
        exercise, DEVELOPMENT_KEY, wrong_for(exercise, LIBRARY), reference_judge(exercise)
    )

    def trees(draw: str, key: bytes = DEVELOPMENT_KEY) -> list[Tree]:
        return [hidden.tree for hidden in draw_hidden_trees(exercise, key, pool, draw)]

    assert trees("submission-7") == trees("submission-7")
    first, second = trees("submission-7"), trees("submission-8")
    # Fresh trees are new in every draw; the few catchers come from a pool of many.
    shared = [tree for tree in first if tree in second]
    assert len(shared) <= 3
    assert trees("submission-7") != trees("submission-7", OTHER_KEY)


def test_draws_spread_over_the_pool_and_keep_both_parities_ties_and_negatives() -> None:
    exercise = CATALOG.get("aima-fig5.2-alphabeta")
    pool = build_pool(
        exercise, DEVELOPMENT_KEY, wrong_for(exercise, LIBRARY), reference_judge(exercise)
    )
    used: set[int] = set()
    for number in range(40):
        drawn = draw_hidden_trees(exercise, DEVELOPMENT_KEY, pool, f"submission-{number}")
        used |= {hidden.catcher for hidden in drawn if hidden.catcher is not None}
        features = set().union(*(shape_features(hidden.tree) for hidden in drawn))
        assert {"even-height", "odd-height", "tie", "negative"} <= features
    assert len(used) >= len(pool.catchers) // 2


def test_the_catch_table_of_a_shipped_exercise_has_no_uncaught_row() -> None:
    exercise = CATALOG.get("aima-fig5.2-alphabeta")
    wrong = wrong_for(exercise, LIBRARY)
    fails = reference_judge(exercise)
    selection = select_hidden_trees(exercise, DEVELOPMENT_KEY, wrong, fails)
    table = catch_table(selection.trees, wrong, fails)
    assert [name for name, _ in table.rows] == sorted(wrong)
    assert "alphabeta/correct_strict" in wrong  # CS188's rule is wrong for AIMA's
    assert all(isinstance(hidden, HiddenTree) for hidden in selection.trees)
    assert not any("UNCAUGHT" in line for line in table.lines())


# -- the exercise file's seed ---------------------------------------------------------------


def test_an_exercise_file_may_set_the_hidden_tree_seed(tmp_path: Path) -> None:
    folder = tmp_path / "seeded"
    folder.mkdir()
    (folder / "exercise.yaml").write_text(
        "title: Seeded\n"
        "algorithm: minimax\n"
        "hidden_trees: {count: 3, seed: spring-2026}\n"
        "trees:\n"
        "  - name: tiny\n"
        '    tree: "MAX[ MIN[1 2] MIN[3 4] ]"\n'
    )
    exercise = load_exercise(folder)
    assert exercise.hidden == HiddenTreePolicy(count=3, seed="spring-2026")
    assert len(hidden_trees(exercise, DEVELOPMENT_KEY)) == 3


@pytest.mark.parametrize("slug", SLUGS)
def test_generated_trees_pass_the_checks_they_are_built_without(slug: str) -> None:
    exercise = CATALOG.get(slug)
    for index in range(30):
        tree = candidate_tree(exercise, DEVELOPMENT_KEY, index)
        assert Tree(tree.root.name, list(tree)) == tree


def test_leaves_after_moves_keeps_every_leaf_below_a_move() -> None:
    base = CATALOG.get("expectiminimax-rescaling")
    exercise = with_policy(base, leaves_after_moves=True)
    seen_chance = False
    for index in range(40):
        tree = candidate_tree(exercise, DEVELOPMENT_KEY, index)
        for node in tree:
            if node.kind is Kind.CHANCE:
                seen_chance = True
                assert not any(child.is_leaf for child in tree.children(node.name)), index
    assert seen_chance
    # Without the policy, the same exercise draws leaves straight below chance nodes.
    trees = [candidate_tree(base, DEVELOPMENT_KEY, index) for index in range(40)]
    assert any(
        child.is_leaf
        for tree in trees
        for node in tree
        if node.kind is Kind.CHANCE
        for child in tree.children(node.name)
    )
