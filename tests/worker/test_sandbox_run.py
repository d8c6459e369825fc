"""Sandboxed runs of honest code: what is recorded, what is reported."""

from __future__ import annotations

import os
from fractions import Fraction

from reference.observed import Call, Return, ValueProblem, Visit
from reference.treefile import parse_compact
from tests.worker.test_sandbox_support import ALPHABETA, fig52, leftover_processes, run, server
from worker.harness.local import entry_spec, run_local
from worker.sandbox import SandboxVerdict
from worker.sandbox.run import _pinned, current_cpu


def called_from(text: str) -> int:
    """The line of the test's alpha-beta source that holds ``text``."""
    return next(n for n, line in enumerate(ALPHABETA.splitlines(), 1) if text in line)


def test_a_correct_alphabeta_completes_and_records_what_it_asked() -> None:
    record = run(ALPHABETA)
    assert record.outcome.verdict is SandboxVerdict.COMPLETED
    assert record.observed.root_value == 3
    assert record.observed.visited() == [
        "A", "B", "B1", "B2", "B3", "C", "C1", "D", "D1", "D2", "D3"
    ]  # fmt: skip
    events = record.observed.events
    assert events[0] == Call("A", "max_value", float("-inf"), float("inf"))
    assert events[1] == Visit("A", "terminal_test")
    # Called, and given its value back, from max_value's loop (the line the harness sent).
    assert Return("C", "min_value", 2, None, "2", called_from("v = max(v, min_value(")) in events


def test_the_sandbox_records_exactly_what_the_in_process_harness_records() -> None:
    tree = fig52()
    local = run_local(tree, ALPHABETA, entry_spec("alphabeta", ("max_value", "min_value"), tree))
    assert run(ALPHABETA).observed == local.observed


NEGAMAX_ASKING_WHO_MOVES = """
def negamax(game, state):
    sign = 1 if game.to_move(state) == "MAX" else -1
    if game.terminal_test(state):
        return sign * game.utility(state, "MAX")
    return max(-negamax(game, game.result(state, a)) for a in game.actions(state))
"""


def test_calls_answered_from_told_facts_are_recorded_as_in_process() -> None:
    # to_move and terminal_test of every state are answered in the child from the facts
    # told with its parent's children, result too: the trace must not differ.
    tree = fig52()
    spec = entry_spec("negamax", ("negamax",), tree)
    record = run(NEGAMAX_ASKING_WHO_MOVES, algorithm="negamax")
    assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
    assert record.observed.root_value == 3
    assert Visit("C1", "to_move") in record.observed.events
    assert record.observed == run_local(tree, NEGAMAX_ASKING_WHO_MOVES, spec).observed


def test_prints_are_captured_and_the_run_leaves_nothing_behind() -> None:
    record = run(ALPHABETA + "\nprint('loaded')\nimport sys\nprint('to stderr', file=sys.stderr)")
    assert record.stdout == "loaded\nto stderr\n"
    assert record.usage.wall_ms >= 0 and record.usage.max_rss_kb > 0
    assert leftover_processes(server()) == []


def test_output_beyond_the_limit_is_truncated_and_the_run_goes_on() -> None:
    record = run(ALPHABETA + "\nfor i in range(5000):\n    print('x' * 99)", output_limit=1000)
    assert record.outcome.verdict is SandboxVerdict.COMPLETED
    assert record.stdout == ("x" * 99 + "\n") * 10
    assert record.stdout_truncated


def test_a_syntax_error_is_a_compile_error_with_its_position() -> None:
    record = run("def max_value(game, state, alpha, beta)\n    return 1\n")
    assert record.outcome.verdict is SandboxVerdict.COMPILE_ERROR
    assert record.outcome.line == 1
    assert "SyntaxError" in record.outcome.message


def test_a_missing_entry_point_is_a_runtime_error() -> None:
    # Only running the module tells what it defines: the child's word, not a compile error.
    record = run("def maximum(game, state):\n    return 1\n")
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert "missing entry points max_value(), min_value()" in record.outcome.message


def test_an_exception_is_a_runtime_error_with_lines_of_the_students_file() -> None:
    record = run(
        """
        def max_value(game, state, alpha, beta):
            return helper(state)

        def helper(state):
            return 1 / 0

        def min_value(game, state, alpha, beta):
            return 0
        """
    )
    outcome = record.outcome
    assert outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert outcome.exception == "ZeroDivisionError"
    assert outcome.line == 6
    assert outcome.traceback[-1] == "line 6, in helper: return 1 / 0"
    assert all("worker" not in line for line in outcome.traceback)


def test_a_refused_game_request_is_the_students_runtime_error() -> None:
    record = run(
        """
        def max_value(game, state, alpha, beta):
            return game.utility(state, "MAX")
        def min_value(game, state, alpha, beta):
            return 0
        """
    )
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert record.outcome.exception == "GameError"


def test_nan_and_rigged_numbers_are_reported_not_trusted() -> None:
    nan = run(ALPHABETA.replace('return game.utility(state, "MAX")', "return float('nan')"))
    assert nan.outcome.verdict is SandboxVerdict.COMPLETED
    line = called_from("v = min(v, max_value(")
    assert (
        Return("B1", "max_value", None, ValueProblem.NOT_FINITE, "nan", line) in nan.observed.events
    )
    rigged = run(
        """
        class Three(int):
            def __eq__(self, other):
                return True
        def max_value(game, state, alpha, beta):
            return Three(3)
        def min_value(game, state, alpha, beta):
            return 0
        """
    )
    assert rigged.observed.root_value is None
    assert rigged.observed.root_problem is ValueProblem.RIGGED


def test_exact_chance_probabilities_reach_the_student_as_fractions() -> None:
    tree = parse_compact("MAX[ CHANCE[1/3*3 2/3*6] CHANCE[1/2*0 1/2*1] ]")
    record = run(
        """
        from fractions import Fraction
        def max_value(game, state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            return max(exp_value(game, game.result(state, a)) for a in game.actions(state))
        def exp_value(game, state):
            outcomes = game.chance_outcomes(state)
            assert all(type(p) is Fraction for _, p in outcomes)
            return sum(p * max_value(game, game.result(state, a)) for a, p in outcomes)
        """,
        tree=tree,
        algorithm="expectimax",
    )
    assert record.outcome.verdict is SandboxVerdict.COMPLETED
    assert record.observed.root_value == Fraction(5)


def test_the_textbook_decision_function_reports_its_action() -> None:
    record = run(
        """
        def alpha_beta_search(state, game):
            def min_value(state):
                if game.terminal_test(state):
                    return game.utility(state, "MAX")
                return min(min_value(game.result(state, a)) for a in game.actions(state))
            return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
        """
    )
    assert record.outcome.verdict is SandboxVerdict.COMPLETED
    assert record.observed.decision == "a1"
    assert record.observed.decision_style


def test_each_run_gets_a_fresh_module() -> None:
    source = """
        import math
        calls = []
        def max_value(game, state, alpha, beta):
            calls.append(1)
            return len(calls)
        def min_value(game, state, alpha, beta):
            return 0
        """
    assert [run(source).observed.root_value for _ in range(3)] == [1, 1, 1]


def test_a_run_is_pinned_to_the_cpu_its_thread_was_running_on() -> None:
    allowed = os.sched_getaffinity(0)
    try:
        for cpu in sorted(allowed):
            os.sched_setaffinity(0, {cpu})  # the scheduler moves this thread there now
            assert current_cpu() == cpu
            with _pinned(True) as pinned:
                assert pinned == cpu
                assert os.sched_getaffinity(0) == {cpu}
            # Free to run anywhere again, the thread stays where it is for now: the run is
            # pinned there, whichever CPU that is. (The scheduler may still move the thread
            # in between, rarely: a few tries.)
            for _attempt in range(5):
                os.sched_setaffinity(0, {cpu})
                os.sched_setaffinity(0, allowed)
                with _pinned(True) as pinned:
                    assert os.sched_getaffinity(0) == {pinned}
                assert os.sched_getaffinity(0) == allowed
                if pinned == cpu:
                    break
            assert pinned == cpu
    finally:
        os.sched_setaffinity(0, allowed)


def test_an_unpinned_run_leaves_the_affinity_alone() -> None:
    allowed = os.sched_getaffinity(0)
    with _pinned(False) as pinned:
        assert pinned is None
        assert os.sched_getaffinity(0) == allowed
