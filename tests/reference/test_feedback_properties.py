"""Properties of feedback on random trees (Hypothesis): right searches get full marks,
every search gets exactly one verdict per node."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.feedback import GOOD_VERDICTS, Verdict, allowed_values, judge
from reference.feedback.checks import Context
from reference.search import SearchOptions, search
from reference.tree import Kind, Number, Tree
from tests.reference.test_feedback_simulator import Student, observed_from_trace, simulate
from tests.strategies import chance_trees, examples, game_trees, values

ONLY_OK = {Verdict.OK, Verdict.PRUNED}


def graded(tree: Tree, algorithm: str, student: Student, **options: object) -> set[Verdict]:
    reference = search(tree, algorithm, SearchOptions(**options))  # type: ignore[arg-type]
    feedback = judge(tree, reference, simulate(tree, student))
    assert feedback.first_divergence is None, feedback.first_divergence
    assert feedback.score == 100
    return set(feedback.verdicts().values())


@given(game_trees(), st.booleans(), st.booleans(), st.booleans())
def test_correct_alphabeta_is_all_ok_or_pruned(
    tree: Tree, fail_hard: bool, on_equality: bool, right_to_left: bool
) -> None:
    if fail_hard and not on_equality:
        fail_hard = False  # fail-hard answers do not fit the strict rule (see values.py)
    student = Student(
        fail_hard=fail_hard,
        prune="eq" if on_equality else "strict",
        right_to_left=right_to_left,
    )
    order = "right-to-left" if right_to_left else "left-to-right"
    verdicts = graded(tree, "alphabeta", student, prune_on_equality=on_equality, order=order)
    assert verdicts <= ONLY_OK


@given(game_trees(), st.booleans(), st.booleans())
def test_correct_negamax_alphabeta_is_all_ok_or_pruned(
    tree: Tree, fail_hard: bool, on_equality: bool
) -> None:
    student = Student(
        "negamax-alphabeta",
        fail_hard=fail_hard and on_equality,
        prune="eq" if on_equality else "strict",
    )
    verdicts = graded(tree, "negamax-alphabeta", student, prune_on_equality=on_equality)
    assert verdicts <= ONLY_OK


@given(game_trees(), st.sampled_from(["minimax", "negamax"]))
def test_correct_minimax_and_negamax_are_all_ok(tree: Tree, algorithm: str) -> None:
    assert graded(tree, algorithm, Student(algorithm)) == {Verdict.OK}  # type: ignore[arg-type]


@given(chance_trees(), st.sampled_from(["expectiminimax"]))
def test_correct_expectiminimax_is_all_ok(tree: Tree, algorithm: str) -> None:
    assert graded(tree, algorithm, Student(algorithm)) == {Verdict.OK}  # type: ignore[arg-type]


@given(game_trees(heuristics=True, max_depth=4), st.integers(0, 4), st.booleans())
def test_correct_depth_limited_minimax_is_all_ok_or_pruned(
    tree: Tree, limit: int, depth_up: bool
) -> None:
    student = Student("depth-limited-minimax", depth_limit=limit, depth_up=depth_up and limit > 0)
    verdicts = graded(tree, "depth-limited-minimax", student, depth_limit=limit)
    assert verdicts <= ONLY_OK


@given(game_trees(), st.booleans())
def test_a_perfect_replay_of_the_reference_is_all_ok(tree: Tree, on_equality: bool) -> None:
    reference = search(tree, "alphabeta", SearchOptions(prune_on_equality=on_equality))
    feedback = judge(tree, reference, observed_from_trace(reference))
    assert set(feedback.verdicts().values()) <= ONLY_OK and feedback.score == 100


students = st.builds(
    Student,
    algorithm=st.sampled_from(["minimax", "alphabeta", "negamax", "negamax-alphabeta"]),
    fail_hard=st.booleans(),
    prune=st.sampled_from(["eq", "strict", "never"]),
    right_to_left=st.booleans(),
    search_twice=st.none() | st.sampled_from(["B", "C", "B1", "C1", "B1.1"]),
    initial=st.none() | values,
    update_beta=st.booleans(),
    skip=st.none() | st.sampled_from(["B", "C", "B2", "C1"]),
    decision_style=st.booleans(),
    max_lowers_beta=st.booleans(),
)
buggy_searches = (
    game_trees(),
    students,
    st.sampled_from(["minimax", "alphabeta", "negamax", "negamax-alphabeta"]),
    st.booleans(),
)
"""A tree, a student with bugs, the reference's algorithm, and its pruning rule."""


@settings(max_examples=examples(300))
@given(*buggy_searches)
def test_judge_gives_every_node_one_verdict(
    tree: Tree, student: Student, algorithm: str, on_equality: bool
) -> None:
    reference = search(tree, algorithm, SearchOptions(prune_on_equality=on_equality))
    feedback = judge(tree, reference, simulate(tree, student))

    assert [node.node for node in feedback.nodes] == list(tree.nodes)
    assert 0 <= feedback.score <= feedback.max_score
    good = all(node.verdict in GOOD_VERDICTS for node in feedback.nodes)
    answer_ok = feedback.value_ok is not False and feedback.decision_ok is not False
    assert (feedback.score == 100) == (good and answer_ok)
    assert (feedback.first_divergence is None) == (feedback.score == 100)
    for node in feedback.nodes:
        assert node.message


@settings(max_examples=examples(300))
@given(*buggy_searches)
def test_the_screen_flags_exactly_the_nodes_the_checks_explain(
    tree: Tree, student: Student, algorithm: str, on_equality: bool
) -> None:
    # The screen repeats the checks' rules in one fast pass; the two must never disagree.
    reference = search(tree, algorithm, SearchOptions(prune_on_equality=on_equality))
    ctx = Context(tree, reference, simulate(tree, student))
    for name in ctx.ref.order:
        assert (name in ctx.wrong_values) == (ctx.value_mismatch(name) is not None), name
    for name in ctx.student.calls:
        assert (name in ctx.wrong_bounds) == (ctx.bounds_mismatch(name) is not None), name


@given(values, values, values, st.booleans())
def test_allowed_values_hold_the_true_value(m: Number, a: Number, b: Number, eq: bool) -> None:
    low, high = min(a, b), max(a, b)
    if eq and low == high:
        return  # a window is never empty under AIMA's rule
    allowed = allowed_values(m, (low, high), prune_on_equality=eq)
    assert allowed.contains(m)
    if low < m < high:
        assert allowed.exact


@given(game_trees(kinds=(Kind.MAX, Kind.MIN)))
def test_no_divergence_is_reported_for_a_right_decision_style_search(tree: Tree) -> None:
    reference = search(tree, "alphabeta")
    feedback = judge(tree, reference, simulate(tree, Student(decision_style=True)))
    assert feedback.first_divergence is None
    assert feedback.decision_ok is True


@given(
    chance_trees(),
    st.builds(
        Student,
        algorithm=st.just("expectiminimax"),
        right_to_left=st.booleans(),
        search_twice=st.none() | st.sampled_from(["B", "C", "B1"]),
        initial=st.none() | values,
        skip=st.none() | st.sampled_from(["B", "C", "B2"]),
        decision_style=st.booleans(),
    ),
)
def test_judge_gives_every_node_one_verdict_on_chance_trees(tree: Tree, student: Student) -> None:
    feedback = judge(tree, search(tree, "expectiminimax"), simulate(tree, student))

    assert [node.node for node in feedback.nodes] == list(tree.nodes)
    assert 0 <= feedback.score <= feedback.max_score
