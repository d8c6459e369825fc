"""Feedback on simulated students: verdicts, first divergences and scores on textbook trees."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from reference.feedback import Allowed, NodeFeedback, TreeFeedback, Verdict, judge
from reference.feedback.tree_facts import tree_facts
from reference.feedback.verdicts import node_feedback_table
from reference.observed import Call, Observed, Return, ValueProblem, Visit
from reference.search import SearchOptions, search
from reference.tree import Number, Tree
from reference.treefile import parse_compact
from tests.reference.test_feedback_simulator import (
    DEEP_CUTOFF,
    FIG52,
    TIE,
    Algorithm,
    Student,
    observed_from_trace,
    simulate,
)

OK, PRUNED = Verdict.OK, Verdict.PRUNED


def grade(
    text: str,
    student: Student | None = None,
    algorithm: Algorithm = "alphabeta",
    observed: Observed | None = None,
    **options: object,
) -> TreeFeedback:
    """Judge a simulated student (or the given observations) on the compact tree ``text``."""
    tree = parse_compact(text)
    reference = search(tree, algorithm, SearchOptions(**options))  # type: ignore[arg-type]
    return judge(tree, reference, observed or simulate(tree, student or Student(algorithm)))


def problems(feedback: TreeFeedback) -> dict[str, str]:
    """The nodes whose verdict is neither ok nor pruned."""
    return {
        name: str(verdict)
        for name, verdict in feedback.verdicts().items()
        if verdict not in (OK, PRUNED)
    }


def with_return(observed: Observed, node: str, value: Number | None, **extra: object) -> Observed:
    """``observed`` with the value ``node`` returned replaced."""
    events = [
        dataclasses.replace(event, value=value, **extra)  # type: ignore[arg-type]
        if isinstance(event, Return) and event.node == node
        else event
        for event in observed.events
    ]
    return dataclasses.replace(observed, events=events)


def divergence(feedback: TreeFeedback) -> str:
    assert feedback.first_divergence is not None
    return feedback.first_divergence.message


# -- correct searches --------------------------------------------------------------------


@pytest.mark.parametrize("fail_hard", [False, True])
def test_fail_soft_and_fail_hard_alphabeta_are_both_right_on_fig52(fail_hard: bool) -> None:
    feedback = grade(FIG52, Student(fail_hard=fail_hard))

    assert problems(feedback) == {}
    assert [name for name, v in feedback.verdicts().items() if v is PRUNED] == ["C2", "C3"]
    assert feedback.first_divergence is None
    assert (feedback.value_ok, feedback.decision_ok) == (True, None)
    assert feedback.score == feedback.max_score == 100


def test_fail_hard_returns_are_accepted_as_bounds() -> None:
    feedback = grade(FIG52, Student(fail_hard=True))

    c = feedback.node("C")
    assert (c.returned, c.true_value, c.allowed and c.allowed.describe()) == (3, 2, "[2, 3]")
    assert c.message == "C returned 3, within [2, 3]."
    assert feedback.node("A").expected == "3"


def test_minimax_gets_every_node_ok() -> None:
    feedback = grade(FIG52, algorithm="minimax")

    assert set(feedback.verdicts().values()) == {OK}
    assert feedback.node("B").message == "B returned 3."


@pytest.mark.parametrize("algorithm", ["negamax", "negamax-alphabeta"])
@pytest.mark.parametrize("fail_hard", [False, True])
def test_negamax_values_are_for_the_player_to_move(algorithm: Algorithm, fail_hard: bool) -> None:
    feedback = grade(FIG52, Student(algorithm, fail_hard=fail_hard), algorithm)

    assert problems(feedback) == {}
    assert feedback.node("B").true_value == -3  # MIN to move at B
    assert feedback.node("B1").true_value == 3  # a leaf under MIN counts as MAX's
    assert feedback.score == 100


def test_expectimax_with_exact_and_float_probabilities() -> None:
    exact = grade(
        "MAX[ CHANCE[1/2*8 1/3*24 1/6*-12] CHANCE[1/2*6 1/2*12] CHANCE[1/4*40 3/4*-4] ]",
        algorithm="expectimax",
    )
    floats = grade("MAX[ CHANCE[0.9*2 0.1*3] CHANCE[0.9*20 0.1*30] ]", algorithm="expectimax")

    assert problems(exact) == {} and exact.value_expected == 10
    assert problems(floats) == {} and floats.value_expected == pytest.approx(21)


def test_a_float_value_within_tolerance_is_the_same_value() -> None:
    text = "MAX[ CHANCE[0.9*2 0.1*3] CHANCE[0.9*1 0.1*4] ]"
    close = with_return(simulate(parse_compact(text), Student("expectimax")), "B", 2.1 + 1e-12)
    far = with_return(close, "B", 2.2)

    assert problems(grade(text, algorithm="expectimax", observed=close)) == {}
    assert problems(grade(text, algorithm="expectimax", observed=far)) == {"B": "wrong_value"}


def test_depth_limited_search_in_either_depth_convention() -> None:
    text = "MAX[ MIN(4)[3 12 8] MIN(1)[2 4 6] MIN(7)[14 5 2] ]"
    for depth_up in (False, True):
        student = Student("depth-limited-minimax", depth_limit=1, depth_up=depth_up)
        feedback = grade(text, student, "depth-limited-minimax", depth_limit=1)
        assert problems(feedback) == {}
        assert feedback.value_expected == 7


def test_decision_style_values_are_not_observed_and_cost_nothing() -> None:
    feedback = grade(FIG52, Student(decision_style=True))

    assert set(feedback.verdicts().values()) == {Verdict.NOT_OBSERVED, PRUNED}
    assert (feedback.value_ok, feedback.decision_actual, feedback.decision_ok) == (None, "a1", True)
    assert feedback.node("B").message == (
        "B was visited; none of your functions returned a number for it after asking the "
        "game about it."
    )
    assert feedback.score == 100


# -- the pruning rule --------------------------------------------------------------------


def test_strict_student_when_the_exercise_prunes_on_equality() -> None:
    feedback = grade(TIE, Student(prune="strict"))

    assert problems(feedback) == {"C2": "extra"}
    assert divergence(feedback) == (
        "At C (MIN, alpha = 10): after C1 returned 10, v = 10 <= alpha = 10, "
        "so C could return at once; your search went on to C2."
    )


def test_equality_student_when_the_exercise_is_strict() -> None:
    feedback = grade(TIE, Student(prune="eq"), prune_on_equality=False)

    assert problems(feedback) == {"C": "wrong_value", "C2": "missed"}
    assert divergence(feedback) == (
        "At C (MIN, alpha = 10): after C1 returned 10, the reference's v = 10 is not < "
        "alpha = 10, so C must go on to C2; your search did not."
    )
    assert feedback.node("C").message == (
        "C returned 10 but its value is 0 < alpha = 10, so it must return a value v with "
        "0 <= v < 10."
    )


def test_strict_fail_soft_is_right_under_the_strict_rule() -> None:
    assert problems(grade(TIE, Student(prune="strict"), prune_on_equality=False)) == {}


# -- buggy searches ----------------------------------------------------------------------


def test_no_pruning_visits_c2_and_c3() -> None:
    feedback = grade(FIG52, Student(prune="never"))

    assert problems(feedback) == {"C2": "extra", "C3": "extra"}
    assert divergence(feedback) == (
        "At C (MIN, alpha = 3): after C1 returned 2, v = 2 <= alpha = 3, "
        "so C could return at once; your search went on to C2."
    )
    assert feedback.first_divergence and feedback.first_divergence.node == "C"
    assert feedback.node("C3").message == (
        "C3 was visited, but the search prunes it at C (after C1 returned 2, v = 2 <= alpha = 3)."
    )
    assert feedback.score == pytest.approx(100 * (30 + 60 * 11 / 13) / 90, abs=0.01)


def test_a_deep_cutoff_is_explained_where_it_happens() -> None:
    feedback = grade(DEEP_CUTOFF, Student(prune="never"))

    assert problems(feedback) == {"C2.2.2": "extra"}
    assert divergence(feedback).startswith("At C2.2 (MIN, alpha = 10): after C2.2.1 returned 4")


def test_right_to_left_order() -> None:
    feedback = grade(FIG52, Student(right_to_left=True))

    assert divergence(feedback) == (
        "At A: your search visited D before B; children are searched left to right."
    )
    verdicts = feedback.verdicts()
    assert verdicts["C"] is verdicts["D"] is Verdict.OUT_OF_ORDER
    assert verdicts["C2"] is verdicts["C3"] is Verdict.EXTRA  # extra wins over out of order
    assert feedback.node("D").message == (
        "D was visited before B, which comes first in search order (left to right)."
    )


def test_right_to_left_is_right_when_the_exercise_says_so() -> None:
    feedback = grade(FIG52, Student(right_to_left=True), order="right-to-left")
    assert problems(feedback) == {}


def test_a_child_visited_before_its_elder_sibling() -> None:
    feedback = grade(FIG52, Student(permute=(("A", (0, 2, 1)),)))

    assert divergence(feedback) == (
        "At A: your search visited D before C; children are searched left to right."
    )
    assert feedback.verdicts()["D"] is Verdict.OUT_OF_ORDER  # the one taken too early
    assert feedback.verdicts()["C"] is OK


def test_a_child_searched_twice() -> None:
    feedback = grade(FIG52, Student(search_twice="C"))

    assert problems(feedback) == {"C": "repeated", "C1": "repeated"}
    assert divergence(feedback) == "C was searched again after it had returned 2."


def test_a_wrong_initial_v_gives_wrong_values() -> None:
    feedback = grade("MAX[-3 -5]", Student("minimax", initial=0), "minimax")

    assert problems(feedback) == {"A": "wrong_value"}
    assert divergence(feedback) == "A returned 0 but its value is -3."
    assert feedback.value_ok is False
    assert feedback.score == pytest.approx(100 * (60 * 2 / 3) / 90, abs=0.01)


def test_beta_never_updated_gives_wrong_bounds() -> None:
    feedback = grade(FIG52, Student(update_beta=False))

    assert problems(feedback) == {
        "B2": "wrong_bounds",
        "B3": "wrong_bounds",
        "D2": "wrong_bounds",
        "D3": "wrong_bounds",
    }
    assert divergence(feedback) == (
        "B2 received alpha = -inf, beta = +inf but the reference searches it with "
        "alpha = -inf, beta = 3."
    )


def test_beta_never_updated_visits_extra_nodes_where_it_matters() -> None:
    feedback = grade("MAX[ MIN[5 MAX[7 9]] ]", Student(update_beta=False))

    assert problems(feedback) == {
        "B2": "wrong_bounds",
        "B2.1": "wrong_bounds",
        "B2.2": "extra",
    }


def test_max_lowering_beta_instead_of_raising_alpha() -> None:
    feedback = grade(FIG52, Student(max_lowers_beta=True))

    assert divergence(feedback) == (
        "C received alpha = -inf, beta = 3 but the reference searches it with "
        "alpha = 3, beta = +inf."
    )


def test_a_missing_subtree() -> None:
    feedback = grade(FIG52, Student(skip="C"))

    assert problems(feedback) == {"C": "missed", "C1": "missed"}
    assert divergence(feedback) == (
        "At A (MAX, beta = +inf): after B returned 3, the reference's v = 3 is not >= "
        "beta = +inf, so A must go on to C; your search did not."
    )


def test_pruning_in_a_minimax_exercise() -> None:
    feedback = grade(FIG52, Student("alphabeta"), "minimax")

    assert problems(feedback) == {"C2": "missed", "C3": "missed"}
    assert divergence(feedback) == (
        "At C: after C1 your search did not go on to C2; every child is searched."
    )


def test_a_search_past_the_depth_limit() -> None:
    text = "MAX[ MIN(4)[3 12 8] MIN(1)[2 4 6] ]"
    student = Student("depth-limited-minimax", depth_limit=2, depth_up=True)  # right depths
    feedback = grade(text, student, "depth-limited-minimax", depth_limit=1)

    assert divergence(feedback) == (
        "At B (depth 1, where the search stops): B is scored by game.eval; "
        "your search searched below the depth limit, to B1."
    )
    assert feedback.verdicts()["B1"] is Verdict.EXTRA


def test_wrong_depth_argument() -> None:
    text = "MAX[ MIN(4)[3 12 8] MIN(1)[2 4 6] ]"
    feedback = grade(
        text,
        Student("depth-limited-minimax", depth_limit=2),
        "depth-limited-minimax",
        depth_limit=1,
    )
    assert divergence(feedback) == "A received depth 2 but the reference searches it with depth 1."


# -- values ------------------------------------------------------------------------------


def test_a_wrong_value_inside_the_window() -> None:
    observed = with_return(simulate(parse_compact(FIG52)), "B", 12)
    feedback = grade(FIG52, observed=observed)

    assert feedback.verdicts()["B"] is Verdict.WRONG_VALUE
    assert divergence(feedback) == (
        "B returned 12 but its value is 3, inside alpha = -inf, beta = +inf, so it must return 3."
    )
    assert (feedback.node("B").expected, feedback.node("B").actual) == ("3", "12")


def test_a_wrong_leaf_value_in_minimax() -> None:
    tree = parse_compact(FIG52)
    observed = with_return(simulate(tree, Student("minimax")), "B2", -12)
    feedback = grade(FIG52, algorithm="minimax", observed=observed)

    assert divergence(feedback) == "B2 returned -12 but its value is 12."


def test_a_fail_low_value_outside_its_bounds() -> None:
    observed = with_return(simulate(parse_compact(FIG52)), "C", 4)
    feedback = grade(FIG52, observed=observed)

    assert divergence(feedback) == (
        "C returned 4 but its value is 2 <= alpha = 3, so it must return a value v with "
        "2 <= v <= 3."
    )


def test_a_fail_high_value_outside_its_bounds() -> None:
    text = "MIN[ MAX[3] MAX[5 1] ]"  # C searched with beta = 3; C1 = 5 cuts
    assert problems(grade(text)) == {}
    observed = with_return(simulate(parse_compact(text)), "C", 2)
    assert divergence(grade(text, observed=observed)) == (
        "C returned 2 but its value is 5 >= beta = 3, so it must return a value v with 3 <= v <= 5."
    )


def test_a_returned_none_is_a_wrong_value() -> None:
    observed = with_return(
        simulate(parse_compact(FIG52)), "B", None, problem=ValueProblem.NONE, shown="None"
    )
    feedback = grade(FIG52, observed=observed)

    assert feedback.node("B").verdict is Verdict.WRONG_VALUE
    assert feedback.node("B").message == "B returned None; a number was expected."


def test_fractions_compare_exactly() -> None:
    text = "MAX[ CHANCE[1/3*1 2/3*2] ]"
    observed = simulate(parse_compact(text), Student("expectimax"))
    assert grade(text, algorithm="expectimax", observed=observed).value_expected == Fraction(5, 3)
    wrong = with_return(observed, "B", Fraction(5, 3) + Fraction(1, 10**12))
    assert problems(grade(text, algorithm="expectimax", observed=wrong)) == {"B": "wrong_value"}


# -- answers and the end of the search ------------------------------------------------------


def test_a_wrong_root_value_is_the_divergence_when_nothing_else_is() -> None:
    observed = simulate(parse_compact(FIG52))
    observed.root_value = 4
    feedback = grade(FIG52, observed=observed)

    assert feedback.value_ok is False
    assert divergence(feedback) == "Your search returned 4 for the root A, but its value is 3."


def test_a_wrong_decision() -> None:
    observed = simulate(parse_compact(FIG52), Student(decision_style=True))
    observed.decision = "a2"
    feedback = grade(FIG52, observed=observed)

    assert feedback.decision_ok is False
    assert divergence(feedback) == (
        "Your search chose a2 at A, but a2 is not a best move; the best move is a1."
    )
    assert feedback.score == pytest.approx(100 * 60 / 70, abs=0.01)


def test_any_best_action_is_a_correct_decision() -> None:
    observed = simulate(parse_compact("MAX[ MIN[3] MIN[3] ]"), Student(decision_style=True))
    observed.decision = "a2"
    assert grade("MAX[ MIN[3] MIN[3] ]", observed=observed).decision_ok is True


def test_a_search_that_stops_early() -> None:
    observed = simulate(parse_compact(FIG52))
    cut = next(i for i, e in enumerate(observed.events) if isinstance(e, Visit) and e.node == "D")
    observed.events = observed.events[: cut - 1]
    feedback = grade(FIG52, observed=observed)

    assert problems(feedback)["D"] == "missed"
    assert divergence(feedback) == (
        "At A (MAX, beta = +inf): after C returned 2, the reference's v = 3 is not >= "
        "beta = +inf, so A must go on to D; your search did not."
    )


def test_nothing_observed() -> None:
    feedback = grade(FIG52, observed=Observed())

    assert set(feedback.verdicts().values()) == {Verdict.MISSED, PRUNED}
    assert divergence(feedback) == "Your search never visited the root A."
    assert feedback.score == pytest.approx(100 * 60 * 2 / 13 / 90, abs=0.01)


def test_visits_alone_without_calls_are_judged_by_order() -> None:
    tree = parse_compact(FIG52)
    evaluated = set(search(tree, "alphabeta").trace.evaluated())
    events = [
        Visit(name, method)
        for name in search(tree, "alphabeta").trace.visited()
        for method in ("terminal_test", "utility")
        if method == "terminal_test" or name in evaluated
    ]
    feedback = judge(tree, search(tree, "alphabeta"), Observed(events=list(events), root_value=3))

    assert set(feedback.verdicts().values()) == {Verdict.NOT_OBSERVED, PRUNED}
    assert feedback.score == 100


def test_events_about_unknown_nodes_are_ignored() -> None:
    observed = simulate(parse_compact(FIG52))
    observed.events.insert(3, Visit("nowhere", "actions"))
    assert problems(grade(FIG52, observed=observed)) == {}


# -- size ---------------------------------------------------------------------------------


def chain(levels: int) -> Tree:
    """A MAX/MIN chain ``levels`` deep, each internal node with a leaf beside its child."""
    from reference.tree import Edge, Kind, Node

    nodes = []
    for i in range(levels):
        kind = Kind.MAX if i % 2 == 0 else Kind.MIN
        nodes.append(Node(f"N{i}", kind, (Edge("a", f"N{i + 1}"), Edge("b", f"L{i}"))))
        nodes.append(Node(f"L{i}", Kind.LEAF, utility=(i * 7) % 11 - 5))
    nodes.append(Node(f"N{levels}", Kind.LEAF, utility=3))
    return Tree("N0", nodes)


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_a_tree_ten_thousand_levels_deep(algorithm: str) -> None:
    tree = chain(10_000)
    reference = search(tree, algorithm)
    feedback = judge(tree, reference, observed_from_trace(reference))

    assert feedback.score == 100 and feedback.first_divergence is None
    assert len(feedback.nodes) == len(tree)


def test_a_deep_tree_with_a_repeated_subtree() -> None:
    tree = chain(3_000)
    reference = search(tree, "minimax")
    observed = observed_from_trace(reference)
    again = [e for e in observed.events if e.node.startswith(("N2999", "L2999", "N3000"))]
    observed.events[-2:-2] = again  # the deepest subtree searched again near the end
    feedback = judge(tree, reference, observed)

    assert problems(feedback).get("N2999") == "repeated"
    assert feedback.first_divergence is not None
    assert feedback.first_divergence.node == "N2999"


def test_node_feedback_made_column_by_column_equals_the_constructors() -> None:
    rows = [
        ("A", Verdict.OK, "3", "3", "A returned 3.", 3, Allowed.exactly(3), 3, None, None),
        (
            "B",
            Verdict.PRUNED,
            None,
            None,
            "B was correctly never visited.",
            None,
            None,
            None,
            (2, 5),
            (None, 5),
        ),
    ]
    made = node_feedback_table(*zip(*rows, strict=True))
    assert made == tuple(NodeFeedback(*row) for row in rows)
    assert [repr(node) for node in made] == [repr(NodeFeedback(*row)) for row in rows]
    assert hash(made[0]) == hash(NodeFeedback(*rows[0]))


def test_the_facts_of_a_small_tree_and_its_reference_are_kept_and_shared() -> None:
    tree = parse_compact("MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]")
    reference = search(tree, "alphabeta")
    assert tree_facts(tree, reference) is tree_facts(tree, reference)
    assert tree_facts(tree, search(tree, "alphabeta")) is not tree_facts(tree, reference)
    first = judge(tree, reference, simulate(tree, Student()))
    again = judge(tree, reference, simulate(tree, Student(skip="C")))
    assert first.perfect and not again.perfect
    assert judge(tree, reference, simulate(tree, Student())) == first


# -- what differs first, for the line where the fix belongs ---------------------------------


def differs(feedback: TreeFeedback) -> str | None:
    assert feedback.first_divergence is not None
    return feedback.first_divergence.differs


def test_the_divergence_says_which_bound_or_the_value_differs_first() -> None:
    assert differs(grade(FIG52, Student(update_beta=False))) == "beta"
    # C gets alpha = -inf, beta = 3 for alpha = 3, beta = +inf: alpha is told first.
    assert differs(grade(FIG52, Student(max_lowers_beta=True))) == "alpha"
    assert differs(grade("MAX[-3 -5]", Student("minimax", initial=0), "minimax")) == "value"
    # A node searched again is none of these.
    assert differs(grade(FIG52, Student(search_twice="B1"))) is None


def test_a_depth_not_decremented_differs_in_the_depth() -> None:
    text = "MAX[ MIN[3 12] MIN[2 4] ]"
    tree = parse_compact(text)
    student = Student("depth-limited-minimax", depth_limit=2)
    observed = simulate(tree, student)
    events = [
        dataclasses.replace(event, depth=2)
        if isinstance(event, Call) and event.node == "B"
        else event
        for event in observed.events
    ]
    feedback = grade(
        text,
        algorithm="depth-limited-minimax",
        observed=dataclasses.replace(observed, events=events),
        depth_limit=2,
    )
    assert divergence(feedback) == (
        "B received depth 2 but the reference searches it with depth 1."
    )
    assert differs(feedback) == "depth"
