"""A search run once on a one-leaf tree, so that a process has touched what a run touches.

The fork-server runs it before it forks, so that lazily made objects (encoders, caches)
exist once instead of in every child; each child runs it again while it waits for its job,
so that the pages a run writes to (CPython writes reference counts on every object it
uses) are copied from the fork-server's before the run starts, not during it.
"""

from __future__ import annotations

from worker.harness.results import EntrySpec
from worker.harness.student import run_student
from worker.harness.values import Described
from worker.sandbox.protocol import HEADER, decode_answer, encode_answer, encode_request
from worker.sandbox.reports import encode_call, encode_helper, encode_report, encode_return

_WARM_UP_SOURCE = """
import math
def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
    return v
def min_value(game, state, alpha, beta):
    return max_value(game, state, alpha, beta)
"""
_WARM_UP_DECISION = """
def minmax_decision(state, game):
    def max_value(state):
        return game.utility(state, "MAX") if game.terminal_test(state) else 0
    return max_value(state), None
"""


class _WarmUpBackend:
    """Answers like a one-leaf tree, through the same encoders as the real channel."""

    game_calls = 0

    def request(self, method: str, token: str, argument: str | None) -> object:
        encode_request(method, token, argument)
        answer: object = {"terminal_test": True, "utility": 1, "actions": []}.get(method)
        return decode_answer(method, encode_answer(method, answer)[HEADER:])

    def note_call(
        self,
        function: str,
        token: str | None,
        alpha: Described | None,
        beta: Described | None,
        depth: Described | None,
        line: int | None = None,
    ) -> None:
        encode_call(function, token or "", alpha, beta, depth, line)

    def note_return(
        self, function: str, token: str | None, value: Described, line: int | None = None
    ) -> None:
        encode_return(function, token or "", value, line)

    def note_helper(
        self, function: str, token: str, start: int, value: Described | None, outermost: bool
    ) -> None:
        encode_helper(function, token, start, value, outermost)


def warm_up() -> None:
    """Run a search once here, so that every lazily made object (encoders, caches) exists
    before the fork instead of being made again in every child."""
    spec = EntrySpec("alphabeta", ("max_value", "min_value"), "MAX")
    result = run_student(_WARM_UP_SOURCE, "warmup.py", spec, _WarmUpBackend(), "0" * 16)
    encode_report(result)
    # The decision-function form, whose helpers' returns are followed (a trace function).
    spec = EntrySpec("minimax", ("max_value", "min_value"), "MAX")
    result = run_student(_WARM_UP_DECISION, "warmup.py", spec, _WarmUpBackend(), "0" * 16)
    encode_report(result)
