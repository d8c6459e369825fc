"""The values a decision-function search's own helpers return, observed in process: every
algorithm family is judged node by node, and the rules that tell a helper's return from a
node's value (a number, about a node the game was asked about, the outermost call) hold."""

from __future__ import annotations

import sys
import textwrap

import pytest

from reference.algorithms import ALGORITHMS
from reference.contracts import ContractChoice
from reference.feedback import TreeFeedback, Verdict, judge
from reference.observed import Observed, Return, ValueProblem, Visit
from reference.search import SearchOptions, search
from reference.tree import Tree
from reference.treefile import parse_compact
from tests.worker.helper_sources import DICE, FAMILIES, FIG52, MINIMAX, Family
from worker.harness.host import TreeHost
from worker.harness.local import LocalRun, entry_spec, run_local
from worker.harness.observer import helper_name, returned_number

GOOD = {Verdict.OK, Verdict.PRUNED}


def run(text: str, source: str, algorithm: str = "minimax", **options: object) -> LocalRun:
    tree = parse_compact(text)
    depth = options.get("depth_limit")
    spec = entry_spec(
        algorithm,
        ALGORITHMS[algorithm].entry_points,
        tree,
        depth if type(depth) is int else None,
        contract=options.get("contract"),  # type: ignore[arg-type]
    )
    return run_local(tree, textwrap.dedent(source), spec)


def judged(
    text: str, source: str, algorithm: str = "minimax", depth_limit: int | None = None
) -> tuple[LocalRun, TreeFeedback]:
    tree = parse_compact(text)
    done = run(text, source, algorithm, depth_limit=depth_limit)
    reference = search(tree, algorithm, SearchOptions(depth_limit=depth_limit))
    return done, judge(tree, reference, done.observed)


def returns(observed: Observed) -> dict[str, tuple[str, object]]:
    """Each node's first return: (function, value)."""
    found: dict[str, tuple[str, object]] = {}
    for event in observed.events:
        if isinstance(event, Return):
            found.setdefault(event.node, (event.function, event.value))
    return found


# --- every family -----------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.algorithm)
def test_a_correct_decision_function_is_judged_at_every_node(family: Family) -> None:
    done, feedback = judged(family.tree, family.correct, family.algorithm, family.depth_limit)
    assert done.result.error is None and done.observed.decision_style
    root = parse_compact(family.tree).root.name
    verdicts = feedback.verdicts()
    assert verdicts.pop(root) in (Verdict.NOT_OBSERVED, Verdict.OK)
    assert set(verdicts.values()) <= GOOD, verdicts
    assert Verdict.OK in verdicts.values()
    assert feedback.decision_ok and feedback.score == feedback.max_score


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.algorithm)
def test_a_wrong_value_inside_a_decision_function_fails_at_its_node(family: Family) -> None:
    done, feedback = judged(family.tree, family.wrong, family.algorithm, family.depth_limit)
    assert done.result.error is None
    wrong = {name for name, verdict in feedback.verdicts().items() if verdict not in GOOD}
    assert {
        name for name, verdict in feedback.verdicts().items() if verdict is Verdict.WRONG_VALUE
    } == family.wrong_nodes, feedback.verdicts()
    assert family.wrong_nodes <= wrong
    # The move is still right: the values below the root are what fails it.
    assert feedback.decision_ok
    assert feedback.score < feedback.max_score


# --- what counts as a node's value ------------------------------------------------------


def test_each_node_gets_the_value_of_the_helper_called_on_it() -> None:
    done = run(FIG52, MINIMAX)
    assert returns(done.observed) == {
        "B": ("min_value", 3), "B1": ("max_value", 3), "B2": ("max_value", 12),
        "B3": ("max_value", 8), "C": ("min_value", 2), "C1": ("max_value", 2),
        "C2": ("max_value", 4), "C3": ("max_value", 6), "D": ("min_value", 2),
        "D1": ("max_value", 14), "D2": ("max_value", 5), "D3": ("max_value", 2),
    }  # fmt: skip
    # A node's value is recorded when the search leaves it: after its children's.
    events = done.observed.events
    b_returns = events.index(Return("B", "min_value", 3, None, "3"))
    assert all(events.index(Return(leaf, "max_value", v, None, str(v))) < b_returns
               for leaf, v in (("B1", 3), ("B2", 12), ("B3", 8)))  # fmt: skip
    # minmax_decision(state, game) is called on the root too, and returns an action.
    assert done.observed.root_value is None and done.result.decision == "a1"


DISPATCHER = """
    import math

    def minmax_decision(state, game):
        def value(state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            if game.to_move(state) == "MAX":
                return max_value(state)
            return min_value(state) + {bias}

        def max_value(state):
            return max(value(game.result(state, a)) for a in game.actions(state))

        def min_value(state):
            return min(value(game.result(state, a)) for a in game.actions(state))

        return max(game.actions(state), key=lambda a: value(game.result(state, a)))
"""


def test_the_outermost_call_on_a_node_gives_its_value() -> None:
    # value(state) dispatches to min_value(state): the dispatcher is what the search uses.
    done, feedback = judged(FIG52, DISPATCHER.format(bias=0))
    assert returns(done.observed)["B"] == ("value", 3)
    assert {verdict for name, verdict in feedback.verdicts().items() if name != "A"} <= GOOD
    # A dispatcher that spoils what min_value found is wrong, whatever min_value returned.
    done, feedback = judged(FIG52, DISPATCHER.format(bias=1))
    assert returns(done.observed)["B"] == ("value", 4)
    assert feedback.node("B").verdict is Verdict.WRONG_VALUE


PROBABILITY_HELPER = """
    def expectiminimax(state, game):
        def probability(state):
            return 1 / len(game.actions(state))

        def value(state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            if game.to_move(state) == "MAX":
                return max(value(game.result(state, a)) for a in game.actions(state))
            p = probability(state)
            return sum(p * value(game.result(state, a)) for a in game.actions(state))

        return max(game.actions(state), key=lambda a: value(game.result(state, a)))
"""


def test_a_probability_helper_inside_value_is_not_the_nodes_value() -> None:
    done, feedback = judged(DICE, PROBABILITY_HELPER, "expectimax")
    assert returns(done.observed)["B"] == ("value", 6)
    assert returns(done.observed)["C"] == ("value", 4)
    assert {verdict for name, verdict in feedback.verdicts().items() if name != "A"} <= GOOD


FOURTH_EDITION = """
    import math

    def minimax_search(game, state):
        player = game.to_move(state)

        def max_value(state):
            if game.terminal_test(state):
                return game.utility(state, player), None
            v, move = -math.inf, None
            for a in game.actions(state):
                v2, _ = min_value(game.result(state, a))
                if v2 > v:
                    v, move = v2, a
            return v, move

        def min_value(state):
            if game.terminal_test(state):
                return game.utility(state, player), None
            v, move = math.inf, None
            for a in game.actions(state):
                v2, _ = max_value(game.result(state, a))
                if v2 < v:
                    v, move = v2, a
            return {pair}

        return max_value(state)
"""


@pytest.mark.parametrize("pair", ["v, move", "move, v"])
def test_a_helper_returning_value_and_move_gives_the_value(pair: str) -> None:
    done, feedback = judged(FIG52, FOURTH_EDITION.format(pair=pair))
    if pair == "move, v":  # max_value unpacks (v2, _): the move would be its value
        assert done.result.error is not None
        return
    assert returns(done.observed)["B"] == ("min_value", 3)
    assert returns(done.observed)["B1"] == ("max_value", 3)  # (3, None) at a terminal
    # The root's value: the outermost call on it, minimax_search's own (value, move).
    assert returns(done.observed)["A"] == ("minimax_search", 3)
    assert done.observed.root_value == 3
    assert set(feedback.verdicts().values()) <= GOOD
    assert (feedback.value_ok, feedback.decision_ok) == (True, True)


def test_a_pair_is_read_in_either_order() -> None:
    assert returned_number((3, "a1")) == (3, None, "3")
    assert returned_number(("a1", 3)) == (3, None, "3")
    assert returned_number((2.5, None)) == (2.5, None, "2.5")
    for not_a_value in ((3, 4), ("a1", "a2"), (3, "a1", "a2"), [3, "a1"], True, "3", None):
        assert returned_number(not_a_value) is None


BOOL_HELPER = """
    import math

    def minmax_decision(state, game):
        def is_over(state):
            return game.terminal_test(state)

        def worth(state):
            return game.utility(state, "MAX") if is_over(state) else None

        def min_value(state):
            if is_over(state):
                return worth(state)
            v = math.inf
            for a in game.actions(state):
                child = game.result(state, a)
                if is_over(child):  # the first call on the child: it returns a bool
                    v = min(v, worth(child))
            return v

        return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
"""


def test_a_helper_returning_a_bool_or_none_is_ignored() -> None:
    done, feedback = judged(FIG52, BOOL_HELPER)
    functions = {function for function, _ in returns(done.observed).values()}
    assert functions == {"min_value", "worth"}
    assert not any(
        isinstance(event, Return) and event.problem is not None for event in done.observed.events
    )
    assert {verdict for name, verdict in feedback.verdicts().items() if name != "A"} <= GOOD


PARENTS_HELPER = """
    import math

    def minmax_decision(state, game):
        def tag(state):
            return 7  # asks the game nothing about its state

        def child_value(state, action):
            return min_value(game.result(state, action))

        def min_value(state):
            v = math.inf
            for a in game.actions(state):
                child = game.result(state, a)
                if game.terminal_test(child):
                    tag(child)
                    v = min(v, game.utility(child, "MAX"))
            return v

        return max(game.actions(state), key=lambda a: child_value(state, a))
"""


def test_a_helper_counts_only_for_a_node_the_game_was_asked_about_during_the_call() -> None:
    # child_value(state, action) is handed the root but asks about its child; tag(leaf) is
    # called right after a question about the leaf, and asks nothing itself.
    done, feedback = judged(FIG52, PARENTS_HELPER)
    assert returns(done.observed) == {
        "B": ("min_value", 3), "C": ("min_value", 2), "D": ("min_value", 2)
    }  # fmt: skip
    assert done.observed.root_value is None
    assert feedback.node("A").verdict is Verdict.NOT_OBSERVED
    assert feedback.node("B1").verdict is Verdict.NOT_OBSERVED
    assert {feedback.node(name).verdict for name in ("B", "C", "D")} == {Verdict.OK}


SETTRACE = """
    import math
    import sys

    def minmax_decision(state, game):
        def min_value(state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            return min(min_value(game.result(state, a)) for a in game.actions(state))

        best = None
        for a in game.actions(state):
            v = min_value(game.result(state, a))
            if best is None or v > best[0]:
                best = (v, a)
            {after_the_first}
        return best[1]
"""


@pytest.mark.parametrize("call", ["sys.settrace(None)", "sys.settrace(lambda *args: None)"])
def test_a_search_that_sets_its_own_trace_function_only_loses_the_observation(
    call: str,
) -> None:
    before = sys.gettrace()
    done, feedback = judged(FIG52, SETTRACE.format(after_the_first=call))
    assert sys.gettrace() is before  # the harness put back what was there
    assert done.result.error is None and done.result.decision == "a1"
    # B was searched before the trace function was replaced: its values were seen.
    assert set(returns(done.observed)) == {"B", "B1", "B2", "B3"}
    assert feedback.node("B").verdict is Verdict.OK
    assert feedback.node("C").verdict is Verdict.NOT_OBSERVED
    assert feedback.node("C").message == (
        "C was visited; none of your functions returned a number for it after asking the "
        "game about it."
    )
    # The next run (a fresh module) is observed again.
    again = run(FIG52, SETTRACE.format(after_the_first="pass"))
    assert set(returns(again.observed)) == set(parse_compact(FIG52).nodes) - {"A"}


def test_entry_functions_are_noted_as_before_and_not_traced() -> None:
    source = """
        def max_value(game, state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            return max(min_value(game, game.result(state, a)) for a in game.actions(state))

        def min_value(game, state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            return min(max_value(game, game.result(state, a)) for a in game.actions(state))

        def minmax_decision(state, game):
            raise AssertionError("the entry functions are called, not the decision function")
    """
    done = run(FIG52, source)
    assert not done.observed.decision_style and done.observed.root_value == 3
    assert returns(done.observed)["B"] == ("min_value", 3)


CS188_AGENT = """
    from game import Agent

    class MinimaxAgent(Agent):
        def __init__(self, depth="2"):
            self.depth = int(depth)

        def getAction(self, gameState):
            return self.max_value(gameState, 0)[1]

        def max_value(self, state, depth):
            if state.isWin() or state.isLose():
                return state.getScore(), None
            best = (float("-inf"), None)
            for action in state.getLegalActions(0):
                value = self.min_value(state.generateSuccessor(0, action), depth)
                best = max(best, (value, action), key=lambda pair: pair[0])
            return best

        def min_value(self, state, depth):
            if state.isWin() or state.isLose():
                return state.getScore()
            return min(
                self.max_value(state.generateSuccessor(1, action), depth + 1)[0]
                for action in state.getLegalActions(1)
            )
"""


def test_a_cs188_agent_is_judged_at_every_node_and_its_root_by_its_helper() -> None:
    tree = parse_compact(FIG52)
    contract = ContractChoice("cs188", "MinimaxAgent", 2, 1)
    done = run(FIG52, CS188_AGENT, contract=contract)
    assert done.result.error is None and done.result.decision == "a1"
    # getAction(root) returns an action: the value of max_value(root) inside it stands.
    assert returns(done.observed)["A"] == ("max_value", 3)
    assert done.observed.root_value == 3
    assert returns(done.observed)["B"] == ("min_value", 3)
    options = SearchOptions(generation="generated", order_judged=False)
    feedback = judge(tree, search(tree, "minimax", options), done.observed)
    assert set(feedback.verdicts().values()) <= GOOD


# --- the tree host's rules, one note at a time ------------------------------------------


def host_of(text: str = FIG52) -> tuple[TreeHost, Tree]:
    tree = parse_compact(text)
    return TreeHost(tree), tree


def visit(host: TreeHost, name: str) -> int:
    host.request("actions", host.token(name), None)
    return host.requests


def test_the_host_counts_a_number_about_a_node_asked_about_during_the_call() -> None:
    host, _ = host_of()
    three = (3, None, "3")
    before = host.requests
    host.note_helper("max_value", host.token("B"), before, three, True)  # not asked about
    at = visit(host, "B")
    host.note_helper("f", host.token("B"), at, three, True)  # began after the question
    host.note_helper("f", host.token("B"), before, (None, ValueProblem.NONE, "None"), True)
    host.note_helper("f", host.token("B"), before, None, True)
    host.note_helper("f", "0" * 16, before, three, True)  # not one of ours
    assert [event for event in host.observed.events if not isinstance(event, Visit)] == []
    host.note_helper("min_value", host.token("B"), before, three, True)
    assert host.observed.events[-1] == Return("B", "min_value", 3, None, "3")


def test_the_host_keeps_the_outermost_value_until_the_outermost_call_returns() -> None:
    host, _ = host_of()
    start = host.requests
    inner = visit(host, "C")
    visit(host, "C1")
    host.note_helper("probability", host.token("C"), inner, (0.5, None, "0.5"), False)
    host.note_helper("min_value", host.token("C"), start + 1, (2, None, "2"), False)
    assert not any(isinstance(event, Return) for event in host.observed.events)
    host.note_helper("value", host.token("C"), start, (2, None, "2"), False)
    # getAction-like: returns no number, but it is the outermost call on C.
    host.note_helper("getAction", host.token("C"), start, None, True)
    assert [event for event in host.observed.events if isinstance(event, Return)] == [
        Return("C", "value", 2, None, "2")
    ]
    # A later call apart from it (a second search of C) is recorded as a second return.
    again = visit(host, "C") - 1
    host.note_helper("min_value", host.token("C"), again, (9, None, "9"), True)
    assert host.observed.events[-1] == Return("C", "min_value", 9, None, "9")


def test_the_roots_first_value_is_the_root_value() -> None:
    host, tree = host_of()
    start = host.requests
    visit(host, tree.root.name)
    host.note_helper("max_value", host.root_token, start, (3, None, "3"), True)
    host.note_helper("max_value", host.root_token, start, (4, None, "4"), True)
    assert host.observed.root_value == 3


def test_helper_names_are_noted_as_printable_ascii() -> None:
    assert helper_name("max_value") == "max_value"
    assert helper_name("<lambda>") == "<lambda>"
    for odd in ("", "tab\there", "new\nline", "é", "x" * 65):
        assert helper_name(odd) == "?"


def test_dice_values_are_fractions_where_the_tree_has_them() -> None:
    done, feedback = judged(DICE, PROBABILITY_HELPER, "expectimax")
    assert feedback.node("B").verdict is Verdict.OK
    assert done.observed.decision_style
