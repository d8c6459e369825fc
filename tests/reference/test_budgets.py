"""The budgets of an exercise's work: a policy or a tree that cannot fit is a located problem
where the file is read, and the pool's walk stops at its budget, saying so."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reference.budgets import (
    HIDDEN_DRAW_NODES,
    HIDDEN_TREE_NODES,
    PUBLIC_NODES,
    full_tree_nodes,
    hidden_shape,
    policy_problems,
)
from reference.exercises import load_exercise
from reference.exercises.model import HiddenTreePolicy
from reference.exercises.outline import check_exercise
from reference.hidden import (
    DEVELOPMENT_KEY,
    LAYERS,
    build_pool,
    load_library,
    random_tree,
    reference_judge,
    wrong_for,
)
from reference.hidden.generate import candidate_tree
from reference.hidden.trusted import CALLS_FLOOR, CALLS_PER_NODE, run_trusted
from reference.problems import FileProblems, Problem
from tests.strategies import examples

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
FIG52 = '"MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"'
"""AIMA Figure 5.2 in compact notation: 13 nodes."""


def make_exercise(tmp_path: Path, extra: str, trees: str | None = None) -> Path:
    folder = tmp_path / "budget-demo"
    folder.mkdir()
    text = "title: T\nalgorithm: alphabeta\n" + extra
    text += trees if trees is not None else f"trees:\n  - name: t\n    tree: {FIG52}\n"
    (folder / "exercise.yaml").write_text(text, encoding="utf-8")
    return folder


def problems(folder: Path) -> list[Problem]:
    with pytest.raises(FileProblems) as caught:
        load_exercise(folder)
    return caught.value.problems


def test_a_policy_whose_trees_may_be_too_large_is_refused_at_its_key(tmp_path: Path) -> None:
    extra = "hidden_trees:\n  max_depth: 10\n  max_branching: 8\n"
    folder = make_exercise(tmp_path, extra)
    [problem] = problems(folder)
    assert problem.file.endswith("exercise.yaml")
    assert (problem.line, problem.column) == (4, 14)  # at max_depth's value
    assert "1,227,133,513 nodes" in problem.message
    assert f"{HIDDEN_TREE_NODES:,} per tree" in problem.message
    assert "max_depth 4 fits" in problem.message
    # The cheap check a web upload runs finds it too.
    with pytest.raises(FileProblems) as caught:
        check_exercise(folder)
    assert caught.value.problems == [problem]


def test_too_many_hidden_trees_per_grading_are_refused_at_count(tmp_path: Path) -> None:
    extra = "hidden_trees:\n  count: 100\n  max_depth: 6\n  max_branching: 4\n"
    [problem] = problems(make_exercise(tmp_path, extra))
    assert problem.line == 4 and "count 100" in problem.message
    fits = HIDDEN_DRAW_NODES // full_tree_nodes(6, 4)
    assert f"count {fits} fits" in problem.message


def test_the_largest_policies_the_budget_allows_load(tmp_path: Path) -> None:
    extra = "hidden_trees:\n  count: 18\n  max_depth: 6\n  max_branching: 4\n"
    exercise = load_exercise(make_exercise(tmp_path, extra))
    assert exercise.hidden.max_depth == 6
    assert full_tree_nodes(6, 4) * 18 <= HIDDEN_DRAW_NODES


def test_limits_past_what_every_course_shares_are_refused(tmp_path: Path) -> None:
    extra = "limits:\n  wall_seconds: 3600\n  cpu_seconds: 600\n  memory_mb: 16384\n"
    found = problems(make_exercise(tmp_path, extra))
    assert [problem.line for problem in found] == [4, 5, 6]
    assert all("less than or equal to" in problem.message for problem in found)


def test_a_game_tree_past_the_public_budget_stops_growing_and_is_located(tmp_path: Path) -> None:
    trees = "trees:\n  - name: full\n    game:\n      name: tictactoe\n"
    [problem] = problems(make_exercise(tmp_path, "", trees))
    assert problem.line == 6  # the game's mapping
    assert f"more than {PUBLIC_NODES:,} nodes" in problem.message
    assert "max_depth" in problem.message


@pytest.mark.parametrize(
    ("budget", "told"),
    [
        # Two trees fit (26 nodes); the third grows past the 4 left, and so does the fourth.
        (30, [(9, "the tree has more than 4 nodes"), (11, "the tree has more than 4 nodes")]),
        # Three trees spend the budget exactly: none is left for the fourth.
        (39, [(10, "no node is left for this tree")]),
    ],
)
def test_public_trees_share_one_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, budget: int, told: list[tuple[int, str]]
) -> None:
    for module in ("reference.exercises.loader", "reference.exercises.sources"):
        monkeypatch.setattr(f"{module}.PUBLIC_NODES", budget)
    trees = "trees:\n" + "".join(f"  - name: t{i}\n    tree: {FIG52}\n" for i in range(4))
    found = problems(make_exercise(tmp_path, "", trees))
    assert len(found) == len(told)
    for problem, (line, words) in zip(found, told, strict=True):
        assert problem.line == line and words in problem.message


@settings(max_examples=examples(60), deadline=None)
@given(
    depth=st.integers(1, 12),
    branching=st.integers(1, 8),
    count=st.integers(1, 100),
    widest=st.integers(0, 40),
    seed=st.integers(0, 2**32),
)
def test_a_policy_that_fits_draws_trees_within_the_budgets(
    depth: int, branching: int, count: int, widest: int, seed: int
) -> None:
    assume(not policy_problems(count, depth, branching))
    shape = hidden_shape(count, depth, branching, widest)
    limit = min(HIDDEN_TREE_NODES, HIDDEN_DRAW_NODES // count)
    assert shape.worst_tree <= limit
    # One child more than the policy and the public trees, or as many as the budget allows.
    assert shape.width == max(branching, widest) + 1 or shape.worst_tree == limit
    policy = HiddenTreePolicy(count=count, min_depth=1, max_depth=depth, max_branching=branching)
    tree = random_tree(random.Random(seed), policy, depth, LAYERS["minimax"], wide=shape.width)
    assert len(tree) <= shape.worst_tree


def test_the_pool_stops_at_its_work_budget_and_says_so() -> None:
    exercise = load_exercise(EXERCISES / "aima-fig5.2-alphabeta")
    wrong = wrong_for(exercise, load_library(EXERCISES / "implementations"))
    fails = reference_judge(exercise)
    whole = build_pool(exercise, DEVELOPMENT_KEY, wrong, fails)
    assert whole.cut_short is None and not whole.uncaught
    small = build_pool(
        exercise, DEVELOPMENT_KEY, wrong, reference_judge(exercise), work=whole.work // 4
    )
    assert small.cut_short is not None and "game calls judged" in small.cut_short
    # It stops at the first judgement past the budget.
    assert whole.work // 4 <= small.work < whole.work // 2
    assert small.uncaught  # what it could not look for is named
    # The same budget cuts the same pool: every worker builds the same one.
    again = build_pool(
        exercise, DEVELOPMENT_KEY, wrong, reference_judge(exercise), work=whole.work // 4
    )
    assert again == small


def test_a_trusted_run_that_searches_states_again_and_again_stops() -> None:
    exercise = load_exercise(EXERCISES / "aima-fig5.2-minimax")
    twice = (EXERCISES / "implementations/minimax/wrong_child_searched_twice.py").read_text()
    policy = HiddenTreePolicy(max_branching=2)
    deep = random_tree(random.Random(7), policy, 12, LAYERS["minimax"])
    run = run_trusted(twice, exercise, deep)
    limit = CALLS_PER_NODE * len(deep) + CALLS_FLOOR
    assert run.error is not None and "TooManyCalls" in run.error
    assert run.calls == limit + 1
    # It is caught there: a correct search asks about each state a few times only.
    assert reference_judge(exercise)(twice, deep)
    correct = (EXERCISES / "implementations/minimax/correct_plain.py").read_text()
    assert run_trusted(correct, exercise, deep).calls < 8 * len(deep)


def test_the_pool_stops_before_its_catchers_pass_their_node_budget() -> None:
    exercise = load_exercise(EXERCISES / "aima-fig5.2-alphabeta")
    wrong = wrong_for(exercise, load_library(EXERCISES / "implementations"))
    pool = build_pool(exercise, DEVELOPMENT_KEY, wrong, reference_judge(exercise), kept=400)
    assert pool.cut_short is not None and "catcher nodes" in pool.cut_short
    assert sum(len(catcher.tree) for catcher in pool.catchers) <= 400


def test_every_candidate_has_one_node_wider_than_the_public_trees_and_the_policy() -> None:
    exercise = load_exercise(EXERCISES / "tictactoe-depth2-heuristic")
    widest_public = max(len(node.edges) for entry in exercise.trees for node in entry.tree)
    assert widest_public == 9
    for index in range(12):
        tree = candidate_tree(exercise, DEVELOPMENT_KEY, index)
        assert max(len(node.edges) for node in tree) == widest_public + 1


def test_the_wide_node_is_cut_to_what_the_budget_leaves() -> None:
    # 18 trees of depth 6 at branching 4 leave 5,555 nodes a tree, 94 more than the
    # policy's worst case: a public node of 200 children cannot be outgrown.
    shape = hidden_shape(18, 6, 4, widest_public=200)
    assert shape.width == 4 + (HIDDEN_DRAW_NODES // 18 - full_tree_nodes(6, 4))
    assert shape.worst_tree == HIDDEN_DRAW_NODES // 18
    # With room, one more child than the widest public node.
    assert hidden_shape(8, 5, 4, widest_public=9).width == 10
