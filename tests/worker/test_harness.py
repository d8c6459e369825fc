"""The student-facing harness run in process: what is recorded, what is reported."""

from __future__ import annotations

import textwrap

import pytest

from reference.observed import Call, Return, ValueProblem, Visit
from reference.tree import Tree
from reference.treefile import parse_compact
from worker.harness.host import ProtocolViolation, TreeHost
from worker.harness.local import LocalRun, entry_spec, run_local

ALPHABETA = textwrap.dedent(
    """
    import math

    def max_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game, game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game, game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v
    """
)


@pytest.fixture
def fig52() -> Tree:
    return parse_compact("MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]")


def run(tree: Tree, source: str, algorithm: str = "alphabeta") -> LocalRun:
    entries = ("negamax",) if algorithm.startswith("negamax") else ("max_value", "min_value")
    return run_local(tree, textwrap.dedent(source), entry_spec(algorithm, entries, tree))


def test_alphabeta_visits_and_calls_are_recorded(fig52: Tree) -> None:
    result = run(fig52, ALPHABETA)
    assert result.result.error is None
    assert result.observed.root_value == 3
    assert result.observed.visited() == [
        "A", "B", "B1", "B2", "B3", "C", "C1", "D", "D1", "D2", "D3"
    ]  # fmt: skip
    events = result.observed.events
    assert events[0] == Call("A", "max_value", float("-inf"), float("inf"))
    assert events[1] == Visit("A", "terminal_test")
    c_call = next(e for e in events if isinstance(e, Call) and e.node == "C")
    assert (c_call.alpha, c_call.beta) == (3, float("inf"))
    # Called, and given its value back, from max_value's loop.
    lines = [text.strip() for text in ALPHABETA.splitlines()]
    line = lines.index("v = max(v, min_value(game, game.result(state, a), alpha, beta))") + 1
    assert Return("C", "min_value", 2, None, "2", line) in events


def test_result_alone_does_not_visit_a_child(fig52: Tree) -> None:
    result = run(
        fig52,
        """
        def max_value(game, state, alpha, beta):
            children = [game.result(state, a) for a in game.actions(state)]
            return 3
        def min_value(game, state, alpha, beta):
            return 0
        """,
    )
    assert result.observed.visited() == ["A"]


def test_textbook_decision_function_with_nested_helpers(fig52: Tree) -> None:
    result = run(
        fig52,
        """
        import math
        def alpha_beta_search(state, game):
            def max_value(state, alpha, beta):
                if game.terminal_test(state):
                    return game.utility(state, "MAX")
                v = -math.inf
                for a in game.actions(state):
                    v = max(v, min_value(game.result(state, a), alpha, beta))
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
                return v
            def min_value(state, alpha, beta):
                if game.terminal_test(state):
                    return game.utility(state, "MAX")
                v = math.inf
                for a in game.actions(state):
                    v = min(v, max_value(game.result(state, a), alpha, beta))
                    if v <= alpha:
                        return v
                    beta = min(beta, v)
                return v
            return max(
                game.actions(state),
                key=lambda a: min_value(game.result(state, a), -math.inf, math.inf),
            )
        """,
    )
    assert result.result.error is None
    assert result.observed.decision_style and result.observed.decision == "a1"
    assert not any(isinstance(event, Call) for event in result.observed.events)


def test_syntax_error_names_line_and_column(fig52: Tree) -> None:
    error = run(fig52, "def max_value(game, state:\n    pass\n").result.error
    assert error is not None and error.kind == "compile"
    assert (error.line, error.exception) == (1, "SyntaxError")


def test_missing_entry_point_names_what_the_file_defines(fig52: Tree) -> None:
    error = run(
        fig52, "def max_value(g, s, a, b):\n    return 0\ndef helper():\n    pass\n"
    ).result.error
    assert error is not None
    assert error.message == (
        "missing entry point min_value() (or the textbook's alpha_beta_search(state, game), "
        "alpha_beta_cutoff_search(state, game) or alphabeta_search(game, state)); "
        "your file defines helper(), max_value()"
    )


def test_runtime_error_keeps_only_the_students_lines(fig52: Tree) -> None:
    error = run(
        fig52,
        """
        def max_value(game, state, alpha, beta):
            return min_value(game, state, alpha, beta)
        def min_value(game, state, alpha, beta):
            return game.utility(state, "MAX")
        """,
    ).result.error
    assert error is not None and error.kind == "runtime"
    assert error.message == "GameError: utility() asked of a state that is not terminal"
    assert error.traceback == (
        "line 3, in max_value: return min_value(game, state, alpha, beta)",
        'line 5, in min_value: return game.utility(state, "MAX")',
    )
    assert error.line == 5


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("None", ValueProblem.NONE),
        ("'3'", ValueProblem.NOT_A_NUMBER),
        ("True", ValueProblem.NOT_A_NUMBER),
        ("float('nan')", ValueProblem.NOT_FINITE),
        (
            "type('Rigged', (int,), {'__eq__': lambda s, o: True, '__hash__': int.__hash__})(3)",
            ValueProblem.RIGGED,
        ),
    ],
)
def test_values_that_are_not_plain_numbers_are_reported(
    fig52: Tree, expression: str, problem: ValueProblem
) -> None:
    source = (
        f"def max_value(g, s, a, b):\n    return {expression}\n"
        "def min_value(g, s, a, b):\n    return 0\n"
    )
    observed = run(fig52, source).observed
    assert observed.root_value is None
    assert observed.root_problem is problem


def test_a_forged_handle_is_a_protocol_violation_even_if_caught(fig52: Tree) -> None:
    host = TreeHost(fig52)
    with pytest.raises(ProtocolViolation):
        host.request("actions", "0123456789abcdef", None)
    assert host.violation == "a request named a state the game never handed out"
    with pytest.raises(ProtocolViolation):
        host.request("actions", host.root_token, None)  # the run is over


def test_a_flood_of_requests_ends_the_run(fig52: Tree) -> None:
    result = run(
        fig52,
        """
        def max_value(game, state, alpha, beta):
            while True:
                try:
                    game.terminal_test(state)
                except Exception:
                    pass
        def min_value(game, state, alpha, beta):
            return 0
        """,
    )
    assert result.result.error is not None  # the loop ends once the host stops answering
    host_requests = sum(isinstance(e, Visit) for e in result.observed.events)
    assert host_requests == 40 * len(fig52) + 1000


def test_module_state_does_not_leak_between_runs(fig52: Tree) -> None:
    source = """
        calls = []
        def max_value(game, state, alpha, beta):
            calls.append(1)
            return len(calls)
        def min_value(game, state, alpha, beta):
            return 0
        """
    assert run(fig52, source).observed.root_value == 1
    assert run(fig52, source).observed.root_value == 1


def test_printed_output_is_kept(fig52: Tree) -> None:
    source = (
        "def max_value(g, s, a, b):\n    print('hello')\n    return 3\n"
        "def min_value(g, s, a, b):\n    return 0\n"
    )
    assert run(fig52, source).stdout == "hello\n"
