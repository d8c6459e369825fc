"""Where the fix of a first divergence belongs: read off hand-written sources, and never
more than the call's line when the source does not tell (or is hostile)."""

from __future__ import annotations

import textwrap

import pytest

from reference.algorithms import ALGORITHMS
from reference.feedback.fix_site import NODE_LIMIT, SOURCE_LIMIT, Changed, Fix, fix_site

ENTRIES = ("max_value", "min_value")

ALPHA_NEVER_RAISED = """\
import math

def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        result = game.result(state, action)
        v = max(v, min_value(game, result, alpha, beta))
        if v >= beta:
            return v
    return v
"""


def line_of(source: str, text: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if text in line)


def fix(
    source: str | bytes,
    line: int,
    changed: Changed,
    algorithm: str = "alphabeta",
    entries: tuple[str, ...] = ENTRIES,
) -> Fix:
    return fix_site(source, line, changed, ALGORITHMS[algorithm], entries)


def call_of(source: str) -> int:
    return line_of(source, "min_value(game")


# -- bounds ---------------------------------------------------------------------------------


def test_alpha_never_raised_points_to_the_loop_over_the_children() -> None:
    found = fix(ALPHA_NEVER_RAISED, call_of(ALPHA_NEVER_RAISED), "alpha")
    assert found == Fix(line_of(ALPHA_NEVER_RAISED, "for action"), "loop", "alpha")


def test_a_wrong_update_of_alpha_is_the_line_to_change() -> None:
    source = ALPHA_NEVER_RAISED.replace(
        "            return v\n", "            return v\n        alpha = max(beta, v)\n"
    )
    found = fix(source, call_of(source), "alpha")
    assert found == Fix(line_of(source, "alpha = max(beta, v)"), "assignment", "alpha")


@pytest.mark.parametrize(
    "update",
    ["alpha += 0", "alpha: float = max(alpha, v)", "alpha, best = max(alpha, v), v",
     "[*alphas, alpha] = [v, v]", "best = (alpha := max(alpha, v))"],
)  # fmt: skip
def test_every_kind_of_assignment_changes_the_variable(update: str) -> None:
    source = ALPHA_NEVER_RAISED.replace(
        "        if v >= beta:", f"        {update}\n        if v >= beta:"
    )
    found = fix(source, call_of(source), "alpha")
    assert found == Fix(line_of(source, update), "assignment", "alpha")


def test_an_update_before_the_call_in_the_loop_counts_too() -> None:
    source = ALPHA_NEVER_RAISED.replace(
        "        result = game.result",
        "        alpha = max(alpha, v)\n        result = game.result",
    )
    assert fix(source, call_of(source), "alpha").site == "assignment"


def test_an_update_outside_the_loop_does_not() -> None:
    source = ALPHA_NEVER_RAISED.removesuffix("    return v\n") + "    alpha = v\n    return v\n"
    assert fix(source, call_of(source), "alpha").site == "loop"


def test_negamax_passes_minus_beta_as_alpha_so_alpha_is_the_beta_to_change() -> None:
    source = textwrap.dedent("""\
        def negamax(game, state, alpha, beta):
            if game.terminal_test(state):
                return game.utility(state, game.to_move(state))
            v = -float("inf")
            for action in game.actions(state):
                v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        """)
    call = line_of(source, "-negamax(")
    entries = ("negamax",)
    # The child's beta is the parent's -alpha: the update of alpha is the line.
    assert fix(source, call, "beta", "negamax-alphabeta", entries) == Fix(
        line_of(source, "alpha = max(alpha, v)"), "assignment", "alpha"
    )
    # The child's alpha is the parent's -beta, which no line of the loop changes.
    assert fix(source, call, "alpha", "negamax-alphabeta", entries) == Fix(
        line_of(source, "for action"), "loop", "beta"
    )


DEPTH_LIMITED = """\
def max_value(game, state, alpha, beta, depth):
    if depth == 0 or game.terminal_test(state):
        return game.eval(state)
    v = -float("inf")
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
"""


def test_a_depth_not_decremented_points_to_the_call_that_passes_it_on() -> None:
    source = DEPTH_LIMITED.replace("beta, depth - 1)", "beta, depth)")
    found = fix(source, call_of(source), "depth", "depth-limited-alphabeta")
    assert found == Fix(call_of(source), "call", "depth")


def test_a_depth_counted_down_per_move_points_to_the_line_that_does_it() -> None:
    source = DEPTH_LIMITED.replace("        alpha = max", "        depth -= 1\n        alpha = max")
    found = fix(source, call_of(source), "depth", "depth-limited-alphabeta")
    assert found == Fix(line_of(source, "depth -= 1"), "assignment", "depth")


def test_the_depth_of_a_minimax_is_its_third_argument() -> None:
    source = textwrap.dedent("""\
        def max_value(game, state, depth):
            v = -1000
            for action in game.actions(state):
                v = max(v, min_value(game, game.result(state, action), depth))
            return v
        """)
    found = fix(source, call_of(source), "depth", "depth-limited-minimax")
    assert found == Fix(call_of(source), "call", "depth")
    # A minimax has no window: asked about alpha, the call is all it can tell.
    assert fix(source, call_of(source), "alpha", "depth-limited-minimax").site == "call"


def test_a_method_of_a_class_and_its_attribute() -> None:
    source = textwrap.dedent("""\
        class Search:
            def max_value(self, game, state, alpha, beta):
                v = -1
                for action in game.actions(state):
                    v = max(v, self.min_value(game, game.result(state, action), self.alpha, beta))
                    self.alpha = max(self.alpha, v)
                return v
        """)
    found = fix(source, line_of(source, "self.min_value("), "alpha")
    assert found == Fix(line_of(source, "self.alpha = max"), "assignment", "self.alpha")


def test_a_while_loop_over_the_children() -> None:
    source = textwrap.dedent("""\
        def max_value(game, state, alpha, beta):
            v, actions, i = -1, game.actions(state), 0
            while i < len(actions):
                v = max(v, min_value(game, game.result(state, actions[i]), alpha, beta))
                i += 1
            return v
        """)
    found = fix(source, call_of(source), "alpha")
    assert found == Fix(line_of(source, "while i <"), "loop", "alpha")


def test_a_call_spread_over_lines_is_found_from_any_of_them() -> None:
    source = ALPHA_NEVER_RAISED.replace(
        "min_value(game, result, alpha, beta)",
        "min_value(\n            game, result, alpha, beta\n        )",
    )
    found = fix(source, line_of(source, "game, result, alpha"), "alpha")
    assert found == Fix(line_of(source, "for action"), "loop", "alpha")


# -- values ---------------------------------------------------------------------------------


MAX_AND_MIN = ALPHA_NEVER_RAISED + textwrap.dedent("""\

    def min_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = float("inf")
        for action in game.actions(state):
            v = min(v, max_value(game, game.result(state, action), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v
    """)


def test_a_wrong_value_points_to_the_called_functions_update_of_what_it_returns() -> None:
    # min_value's value came back wrong to max_value's call: its update of v is the line.
    found = fix(MAX_AND_MIN, call_of(MAX_AND_MIN), "value")
    assert found == Fix(line_of(MAX_AND_MIN, "v = min(v, max_value("), "assignment", "v")


def test_a_value_never_updated_points_to_the_called_functions_loop() -> None:
    source = MAX_AND_MIN.replace("v = min(v, max_value(", "best = min(v, max_value(")
    found = fix(source, call_of(source), "value")
    loop = next(
        n
        for n in range(line_of(source, "def min_value"), 99)
        if "for action" in source.splitlines()[n - 1]
    )
    assert found == Fix(loop, "loop", "v")


def test_an_update_after_the_loop_counts_for_a_value() -> None:
    source = MAX_AND_MIN.replace("v = min(v, max_value(", "w = min(v, max_value(").replace(
        "        beta = min(beta, v)\n    return v",
        "        beta = min(beta, v)\n    v = v + 0\n    return v",
    )
    found = fix(source, call_of(source), "value")
    assert found == Fix(line_of(source, "v = v + 0"), "assignment", "v")


# -- the call, when the source does not tell -------------------------------------------------


def test_recursion_through_a_helper_gives_the_call() -> None:
    source = textwrap.dedent("""\
        def child(game, state, alpha, beta):
            return min_value(game, state, alpha, beta)

        def max_value(game, state, alpha, beta):
            v = -1
            for action in game.actions(state):
                v = max(v, child(game, game.result(state, action), alpha, beta))
            return v
        """)
    line = line_of(source, "return min_value(")
    assert fix(source, line, "alpha") == Fix(line, "call")
    assert fix(source, line, "value") == Fix(line, "call")


@pytest.mark.parametrize(
    "source",
    [
        # No loop: the children unrolled.
        "def max_value(game, state, alpha, beta):\n"
        "    return min_value(game, state, alpha, beta)\n",
        # A comprehension, a lambda.
        "def max_value(game, state, alpha, beta):\n"
        "    return max(min_value(game, s, alpha, beta) for s in game.actions(state))\n",
        "def max_value(game, state, alpha, beta):\n    for a in game.actions(state):\n"
        "        v = max(min_value(game, s, alpha, beta) for s in [a])\n",
        "max_value = lambda game, state, alpha, beta: min_value(game, state, alpha, beta)\n",
        # A loop of the module itself.
        "for s in []:\n    min_value(None, s, 1, 2)\n",
        # Two variables at the position, or none.
        "def max_value(game, state, alpha, beta):\n    for s in []:\n"
        "        min_value(game, s, max(alpha, beta), beta)\n",
        "def max_value(game, state, alpha, beta):\n    for s in []:\n"
        "        min_value(game, s, 3, beta)\n",
        # A module's constant, a global: nothing of the function's to change.
        "import math\ndef max_value(game, state, alpha, beta):\n    for s in []:\n"
        "        min_value(game, s, -math.inf, beta)\n",
        "LOW = -1\ndef max_value(game, state, alpha, beta):\n    for s in []:\n"
        "        min_value(game, s, LOW, beta)\n",
        # Arguments spread from a list.
        "def max_value(game, state, alpha, beta):\n    for s in []:\n"
        "        min_value(game, *[s, alpha, beta])\n",
    ],
)
def test_where_the_source_does_not_tell_the_call_stands(source: str) -> None:
    line = line_of(source, "min_value(")
    assert fix(source, line, "alpha") == Fix(line, "call")


def test_a_line_without_the_call_gives_the_call() -> None:
    assert fix(ALPHA_NEVER_RAISED, 1, "alpha") == Fix(1, "call")
    assert fix(ALPHA_NEVER_RAISED, 10_000, "alpha") == Fix(10_000, "call")


@pytest.mark.parametrize(
    "after",
    [
        "def f(\n",
        "\x00\n",
        "x = '\ud800'\n",
        "x = " + "(" * 100_000 + ")" * 100_000 + "\n",
        "x = " + "-" * 200_000 + "1\n",  # the parser runs out of memory
        "x = " + "1+" * 200_000 + "1\n",  # a RecursionError building the tree
        "#" * SOURCE_LIMIT,
    ],
    ids=["syntax", "null", "surrogate", "parens", "deep", "recursion", "huge"],
)
def test_hostile_sources_give_the_call_without_raising(after: str) -> None:
    # The search itself is intact: only what follows it keeps the source from telling.
    source = ALPHA_NEVER_RAISED + after
    line = call_of(source)
    assert fix(source, line, "alpha") == Fix(line, "call")
    assert fix(source, line, "value") == Fix(line, "call")


def test_bytes_are_read_as_utf_8_or_not_at_all() -> None:
    line = call_of(ALPHA_NEVER_RAISED)
    assert fix(ALPHA_NEVER_RAISED.encode(), line, "alpha").site == "loop"
    assert fix(ALPHA_NEVER_RAISED.encode() + b"# \xff\xfe\n", line, "alpha").site == "call"


def test_the_work_is_bounded_by_the_nodes_walked() -> None:
    # A loop body far longer than any search's (four nodes a line): the call stands.
    lines = 10_000
    assert 4 * lines > NODE_LIMIT
    body = "".join(f"        x{n} = {n}\n" for n in range(lines))
    source = ALPHA_NEVER_RAISED.replace("        if v >= beta:", body + "        if v >= beta:")
    assert len(source) < SOURCE_LIMIT
    line = call_of(source)
    assert fix(source, line, "alpha") == Fix(line, "call")


def test_a_nested_function_in_the_loop_does_not_change_the_variable() -> None:
    source = ALPHA_NEVER_RAISED.replace(
        "        if v >= beta:",
        "        def raise_it():\n            alpha = v\n        if v >= beta:",
    )
    assert fix(source, call_of(source), "alpha").site == "loop"


def test_a_function_called_at_the_position_is_not_the_variable() -> None:
    source = ALPHA_NEVER_RAISED.replace("result, alpha, beta", "result, float(alpha), beta")
    assert fix(source, call_of(source), "alpha") == Fix(
        line_of(source, "for action"), "loop", "alpha"
    )
