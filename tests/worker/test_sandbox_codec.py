"""The lean wire: every message kind round-trips through its codec, and the trusted side's
short ways (a request read whole, an answer given again) read the child's bytes as
strictly as the long way, record every request the child makes, and end a run on a
malformed or oversized frame with a protocol violation, never an exception or a hang.

The trusted side here is a real :class:`TreeServer` on real pipes; the child is a thread
that writes what a hostile child might write and reads the answers.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.observed import Visit
from reference.treefile import parse_compact
from worker.harness.backend import Refusal
from worker.harness.game import GameError, State
from worker.harness.host import TreeHost
from worker.harness.results import EntrySpec
from worker.sandbox.bounds import NoteBounds
from worker.sandbox.child import RemoteBackend, RemoteGame
from worker.sandbox.protocol import (
    HEADER,
    MAX_MESSAGE,
    METHOD_CODES,
    TOKEN_LENGTH,
    Facts,
    decode_answer,
    decode_job,
    encode_answer,
    encode_job,
    encode_request,
    encode_told,
    frame,
    parse_request,
    request_head,
)
from worker.sandbox.treeserver import Ending, Served, TreeServer

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"

texts = st.text(max_size=12)
numbers = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.fractions(max_denominator=10**6),
)
handles = st.text("0123456789abcdef", min_size=TOKEN_LENGTH, max_size=TOKEN_LENGTH)
facts = st.lists(st.tuples(handles, st.booleans(), st.sampled_from(["MAX", "MIN", "CHANCE"])))


# --- the codec ----------------------------------------------------------------------------


@given(st.sampled_from(sorted(METHOD_CODES)), handles, st.none() | texts)
def test_a_request_reads_back_as_sent(method: str, token: str, argument: str | None) -> None:
    body = encode_request(method, token, argument)
    assert parse_request(body) == (method, token.encode(), argument)
    if argument is None:
        assert request_head(method) + token.encode() == frame(body)


@given(st.sampled_from(sorted(METHOD_CODES)), handles, st.none() | texts.filter(str.isprintable))
def test_a_told_line_reads_back_as_sent(method: str, token: str, argument: str | None) -> None:
    line = encode_told(method, token, argument)
    assert line.endswith(b"\n")
    assert parse_request(line[:-1]) == (method, token.encode(), argument)


def answered(
    method: str, answer: object, told: list[tuple[str, bool, str]] | None = None
) -> tuple[object, Facts | None]:
    framed = encode_answer(method, answer, told)
    assert int.from_bytes(framed[:HEADER], "little") == len(framed) - HEADER
    return decode_answer(method, memoryview(framed)[HEADER:])


@given(st.booleans(), st.sampled_from(["MAX", "MIN", "CHANCE"]), handles)
def test_plain_answers_read_back(terminal: bool, mover: str, token: str) -> None:
    assert answered("terminal_test", terminal) == (terminal, None)
    assert answered("to_move", mover) == (mover, None)
    assert answered("result", token) == (token, None)


@given(numbers)
def test_a_value_reads_back_exactly(value: int | float | Fraction) -> None:
    for method in ("utility", "eval"):
        read, told = answered(method, value)
        assert read == value and type(read) is type(value) and told is None


@given(st.lists(texts, unique=True, max_size=6), facts)
def test_a_states_children_read_back_with_their_facts(
    actions: list[str], told: list[tuple[str, bool, str]]
) -> None:
    told = told[: len(actions)]
    actions = actions[: len(told)]
    assert answered("actions", actions, told) == (actions, told)
    assert answered("actions", actions) == (actions, None)  # told once, not again
    pairs = [(action, handle) for action, (handle, _, _) in zip(actions, told, strict=True)]
    assert answered("successors", pairs, told) == (pairs, told)
    outcomes = [(action, Fraction(1, len(actions))) for action in actions]
    assert answered("chance_outcomes", outcomes, told) == (outcomes, told)


@given(st.lists(texts, unique=True, max_size=6), facts)
def test_the_child_keeps_what_an_answer_tells_of_each_child(
    actions: list[str], told: list[tuple[str, bool, str]]
) -> None:
    told = told[: len(actions)]
    actions = actions[: len(told)]
    backend = RemoteBackend([("0123456789abcdef", False, "MAX")])
    backend._learn("0123456789abcdef", actions, told)
    kept = {handle: (terminal, mover) for handle, terminal, mover in told}
    assert {handle: backend._facts[handle] for handle in kept} == kept
    # An action holding a newline or a NUL is asked about, not answered from facts.
    assert backend._children["0123456789abcdef"] == {
        action: handle
        for action, (handle, _, _) in zip(actions, told, strict=True)
        if "\n" not in action and "\0" not in action
    }


def test_a_refusal_reads_back_as_one() -> None:
    assert answered("utility", Refusal("not terminal")) == (Refusal("not terminal"), None)


def test_a_job_reads_back_as_sent() -> None:
    spec = EntrySpec("alphabeta", ("max_value", "min_value"), "MAX", depth_limit=3, seed=7)
    root = [("0123456789abcdef", False, "MAX")]
    body = encode_job("x = 1\n", "s.py", spec, "0123456789abcdef", root)[HEADER:]
    assert decode_job(body) == ("x = 1\n", "s.py", spec, "0123456789abcdef", root)


# --- the trusted side, fed by a child thread -------------------------------------------------


class Child(threading.Thread):
    """A child that writes ``script``'s messages in turn (framed by the script itself),
    reading an answer after each one that ``awaits`` says expects one, then hangs up."""

    def __init__(self, requests_fd: int, answers_fd: int, script: list[tuple[bytes, bool]]):
        super().__init__(daemon=True)
        self.requests_fd, self.answers_fd = requests_fd, answers_fd
        self.script = script
        self.answers: list[bytes] = []

    def run(self) -> None:
        try:
            self.answers.append(self._read())  # the job
            for message, awaits in self.script:
                os.write(self.requests_fd, message)
                if awaits:
                    answer = self._read()
                    if not answer:
                        return
                    self.answers.append(answer)
        except OSError:
            return  # the trusted side ended the run
        finally:
            os.close(self.requests_fd)

    def _read(self) -> bytes:
        data = os.read(self.answers_fd, 1 << 20)
        while data and len(data) < HEADER + int.from_bytes(data[:HEADER], "little"):
            more = os.read(self.answers_fd, 1 << 20)
            if not more:
                break
            data += more
        return data[HEADER:]


def serve(
    script: Callable[[TreeHost], list[tuple[bytes, bool]]], request_cap: int | None = None
) -> tuple[Served, TreeHost, list[bytes]]:
    """Serve Figure 5.2 to a child thread writing ``script(host)``; how the run ended, the
    host (its trace) and the answers the child read (the job first)."""
    host = TreeHost(parse_compact(FIG52), request_cap=request_cap)
    requests_in, requests_out = os.pipe()
    answers_in, answers_out = os.pipe()
    child = Child(requests_out, answers_in, script(host))
    child.start()
    try:
        server = TreeServer(
            host,
            requests_in,
            answers_out,
            ("max_value", "min_value"),
            output_limit=1 << 16,
            output_flood=1 << 23,
            bounds=NoteBounds.for_tree(len(host.tree), 10_000),
        )
        served = server.serve(frame(b"job"), time.monotonic() + 10)
    finally:
        for fd in (requests_in, answers_out):
            os.close(fd)
        child.join(10)
        os.close(answers_in)
    assert not child.is_alive(), "the run did not end"
    return served, host, child.answers


def ask(method: str, token: str, argument: str | None = None) -> tuple[bytes, bool]:
    return frame(encode_request(method, token, argument)), True


def visits(host: TreeHost) -> list[tuple[str, str]]:
    return [(event.node, event.method) for event in host.observed.events if type(event) is Visit]


def test_a_request_asked_again_is_answered_alike_and_recorded_each_time() -> None:
    served, host, answers = serve(lambda host: [ask("actions", host.root_token)] * 5)
    assert served.ending is Ending.CLOSED
    assert visits(host) == [("A", "actions")] * 5
    assert host.requests == 5
    first, *again = (decode_answer("actions", answer) for answer in answers[1:])
    assert first[0] == ["a1", "a2", "a3"] and first[1] is not None
    # The children's facts are told once; the actions each time.
    assert again == [(["a1", "a2", "a3"], None)] * 4


def test_the_same_state_asked_with_another_argument_gets_its_own_answer() -> None:
    def script(host: TreeHost) -> list[tuple[bytes, bool]]:
        leaf = host.token("B1")
        return [ask("utility", leaf, "MAX"), ask("utility", leaf, "MIN")] * 2

    served, host, answers = serve(script)
    assert served.ending is Ending.CLOSED
    assert [decode_answer("utility", answer)[0] for answer in answers[1:]] == [3, -3, 3, -3]
    assert visits(host) == [("B1", "utility")] * 4


def test_requests_answered_again_count_towards_the_cap() -> None:
    served, host, _ = serve(lambda host: [ask("actions", host.root_token)] * 6, request_cap=5)
    assert served.ending is Ending.VIOLATION
    assert served.message == "more than 5 game calls"
    assert host.requests == 6 and len(visits(host)) == 5


def test_a_refused_request_is_refused_and_recorded_each_time() -> None:
    served, host, answers = serve(lambda host: [ask("utility", host.root_token, "MAX")] * 3)
    assert served.ending is Ending.CLOSED
    assert [decode_answer("utility", answer)[0] for answer in answers[1:]] == [
        Refusal("utility() asked of a state that is not terminal")
    ] * 3
    assert visits(host) == [("A", "utility")] * 3


def test_after_a_violation_a_request_asked_before_is_not_answered() -> None:
    def script(host: TreeHost) -> list[tuple[bytes, bool]]:
        return [
            ask("actions", host.root_token),
            ask("actions", "f" * 16),
            ask("actions", host.root_token),
        ]

    served, host, answers = serve(script)
    assert served.ending is Ending.VIOLATION
    assert served.message == "a request named a state the game never handed out"
    assert len(answers) == 2  # the job and the first answer
    assert host.requests == 2


MALFORMED: dict[str, tuple[Callable[[TreeHost], list[tuple[bytes, bool]]], Ending, str]] = {
    "a declared length over the limit": (
        lambda host: [((MAX_MESSAGE + 1).to_bytes(HEADER, "little") + b"?a", False)],
        Ending.VIOLATION,
        "a message longer than 65,536 bytes",
    ),
    "a declared length shorter than the request": (
        # The handle's digits after the message are read as the next one's length.
        lambda host: [(frame(b"?a") + host.root_token.encode(), True)],
        Ending.VIOLATION,
        "a message longer than 65,536 bytes",
    ),
    "an empty message": (lambda host: [(frame(b""), True)], Ending.VIOLATION, "an empty message"),
    "an unknown method": (
        lambda host: [(frame(b"?z" + host.root_token.encode()), True)],
        Ending.VIOLATION,
        "an unknown game request",
    ),
    "a handle one character short": (
        lambda host: [ask("actions", host.root_token[:-1])],
        Ending.VIOLATION,
        "a request named a state the game never handed out",
    ),
    "a handle of bytes that are no text": (
        lambda host: [(frame(b"?a" + b"\xff" * TOKEN_LENGTH), True)],
        Ending.VIOLATION,
        "a request named a state the game never handed out",
    ),
    "a request with nothing after its method": (
        lambda host: [(frame(b"?"), True)],
        Ending.VIOLATION,
        "an unknown game request",
    ),
    "bytes that are no message": (
        lambda host: [(frame(b"\x00\x01\x02garbage"), True)],
        Ending.VIOLATION,
        "a malformed message",
    ),
    "a request cut by the child's end": (
        lambda host: [(frame(b"?a" + host.root_token.encode())[:-3], False)],
        Ending.CLOSED,
        "",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_frame_ends_the_run_with_a_clear_verdict(case: str) -> None:
    script, ending, message = MALFORMED[case]
    served, host, _ = serve(script)
    assert served.ending is ending
    assert message in served.message
    assert visits(host) == []


def test_a_malformed_frame_after_requests_answered_again_still_ends_the_run() -> None:
    def script(host: TreeHost) -> list[tuple[bytes, bool]]:
        return [ask("actions", host.root_token)] * 3 + [(frame(b"?z"), True)]

    served, host, _ = serve(script)
    assert served.ending is Ending.VIOLATION and served.message == "an unknown game request"
    assert visits(host) == [("A", "actions")] * 3


# --- the child's game -----------------------------------------------------------------------


class Answers(RemoteBackend):
    """A backend that answers every request with ``answer`` and remembers the requests."""

    def __init__(self, answer: object) -> None:
        super().__init__([("0123456789abcdef", False, "MAX")])
        self.answer = answer
        self.asked: list[tuple[str, object, object]] = []

    def request(self, method: str, token: str, argument: str | None) -> object:
        self.asked.append((method, token, argument))
        return self.answer


def test_the_childs_actions_are_a_fresh_list_each_time_and_asked_each_time() -> None:
    backend = Answers(["a1", "a2"])
    game = RemoteGame(backend)
    state = State("0123456789abcdef", game)
    first = game.actions(state)
    first.append("mine")
    assert game.actions(state) == ["a1", "a2"]
    assert backend.asked == [("actions", "0123456789abcdef", None)] * 2


def test_the_childs_actions_refused_or_of_no_state_raise_as_the_game_does() -> None:
    game = RemoteGame(Answers(Refusal("no")))
    with pytest.raises(GameError, match="no"):
        game.actions(State("0123456789abcdef", game))
    for state in (State(None, game), "a state", None):  # type: ignore[arg-type]
        with pytest.raises(GameError, match="needs a state from the game"):
            game.actions(state)
