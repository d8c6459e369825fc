"""The student's process: confine, wait for the job, run the student's search, report, end.

Runs in a child of the fork-server, forked before its run is known (a standby): it confines
itself at once and then waits for the job, so that neither the fork nor the confinement is
part of a run's time. From the moment :func:`confine` returns, everything in
this process, including this module, is in the student's reach (Python cannot keep a
module's code from itself); what protects the grader is the confinement, and that the
trusted side believes nothing the child says without checking it.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from importlib.machinery import BuiltinImporter, FrozenImporter
from typing import Any, NoReturn

from worker.harness.backend import Refusal
from worker.harness.game import Game, GameError, State
from worker.harness.results import EntrySpec, StudentError, StudentResult
from worker.harness.student import run_student
from worker.harness.values import Described
from worker.sandbox.confinement import Confinement, arrange_fds, confine
from worker.sandbox.importable import IMPORTABLE
from worker.sandbox.limits import ChildPlan
from worker.sandbox.protocol import (
    HEADER,
    MAX_MESSAGE,
    METHOD_CODES,
    TOKEN_LENGTH,
    Facts,
    decode_answer,
    decode_job,
    encode_request,
    encode_told,
    frame,
    request_head,
)
from worker.sandbox.reports import encode_call, encode_helper, encode_report, encode_return
from worker.sandbox.seccomp_filter import ANSWERS_FD, REQUESTS_FD
from worker.sandbox.warmup import warm_up

_FACTS_KEPT = 4096
_NOTES_BATCH = 20
"""Notes kept before they are sent without a request. A note line is at most about 2.3 kB
(three values of 1,024-bit fractions with their shown forms), so a batch stays well
under the protocol's longest message; a search sends its notes with every request anyway."""
_OUTPUT_BLOCK = 8192
_OUT_OF_MEMORY = frame(
    encode_report(
        StudentResult(error=StudentError("runtime", "MemoryError", exception="MemoryError"))
    )
)
"""Made in advance: when memory has run out, there may be none left to make it."""
_STARTED = frame(b"S")
_HEADS = {method: request_head(method) for method in METHOD_CODES}
"""Each request's framed start, for a handle of ours and no argument."""


class RemoteBackend:
    """The backend of the child's ``game``: one message per request, each waiting for the
    trusted side's answer. Answers that list a state's children also tell their facts,
    which it keeps for :class:`RemoteGame`; the notes of calls and returns, and the told
    lines of calls answered from those facts, go with the next message."""

    __slots__ = ("_children", "_facts", "_last", "_pending", "game_calls")

    def __init__(self, root_facts: Facts) -> None:
        self._pending: list[bytes] = []
        self.game_calls = 0
        """Requests sent and told lines queued: the trusted side counts the same."""
        self._facts: dict[str, tuple[bool, str]] = {}
        self._children: dict[str, dict[str, str]] = {}
        self._learn("", [], root_facts)
        self._last: tuple[str, bytes, object] = ("", b"", None)
        """The last answer that told nothing of children: its method, its message as it
        came and what it decoded to (the game copies or wraps what it hands out)."""

    def request(self, method: str, token: str, argument: str | None) -> object:
        self.game_calls += 1
        if (
            argument is None
            and type(token) is str
            and len(token) == TOKEN_LENGTH
            and token.isascii()
        ):
            # The usual request: a handle of ours and no argument, framed in advance.
            message = _HEADS[method] + token.encode()
        else:
            message = frame(encode_request(method, token, argument))
        if self._pending:
            message = frame(b"".join(self._pending) + message[HEADER:])
            self._pending.clear()
        os.write(REQUESTS_FD, message)
        data = os.read(ANSWERS_FD, 65536)
        if len(data) < HEADER or int.from_bytes(data[:HEADER], "little") > len(data) - HEADER:
            data = _receive_rest(data)
        last = self._last
        if data == last[1] and method == last[0]:
            return last[2]  # the same answer again (a search asks the same, or ties)
        answer, told = decode_answer(method, memoryview(data)[HEADER:])
        if told is None:
            self._last = (method, data, answer)
            return answer
        actions = answer if method == "actions" else [pair[0] for pair in answer]
        self._learn(token, actions, told)
        return answer

    def _learn(self, token: str, actions: list[str], facts: Facts) -> None:
        if len(self._facts) > _FACTS_KEPT:
            # A search needs the facts of the states along its path only; asking again
            # for a forgotten one costs a round trip, nothing else.
            self._facts.clear()
            self._children.clear()
        kept = self._facts
        if not token:  # the root's, told with the job
            for child, terminal, mover in facts:
                kept[child] = (terminal, mover)
            return
        # One fact per action (the trusted side tells one per edge): one loop for both.
        children = {}
        for action, (child, terminal, mover) in zip(actions, facts, strict=False):
            kept[child] = (terminal, mover)
            if "\n" not in action and "\0" not in action:  # else its result is asked
                children[action] = child
        self._children[token] = children

    def note_call(
        self,
        function: str,
        token: str | None,
        alpha: Described | None,
        beta: Described | None,
        depth: Described | None,
        line: int | None = None,
    ) -> None:
        # Calls on anything but our states are not recorded; don't send them.
        if type(token) is str and len(token) == TOKEN_LENGTH:
            self._queue(encode_call(function, token, alpha, beta, depth, line))

    def note_return(
        self, function: str, token: str | None, value: Described, line: int | None = None
    ) -> None:
        if type(token) is str and len(token) == TOKEN_LENGTH:
            self._queue(encode_return(function, token, value, line))

    def note_helper(
        self, function: str, token: str, start: int, value: Described | None, outermost: bool
    ) -> None:
        if type(token) is str and len(token) == TOKEN_LENGTH:
            self._queue(encode_helper(function, token, start, value, outermost))

    def told(self, line: bytes) -> None:
        """Keep the told line of a call answered from told facts (a game call)."""
        self.game_calls += 1
        self._queue(line)

    def _queue(self, line: bytes) -> None:
        """Keep a note line for the next message (sent now if enough are kept)."""
        self._pending.append(line)
        if len(self._pending) >= _NOTES_BATCH:
            self.finish(b"")

    def finish(self, last: bytes) -> None:
        """Send the pending notes followed by ``last`` (the report, or nothing); in two
        messages if one would be too long."""
        notes = b"".join(self._pending)
        self._pending.clear()
        if notes and last and len(notes) + len(last) > MAX_MESSAGE:
            os.write(REQUESTS_FD, frame(notes))
            notes = b""
        os.write(REQUESTS_FD, frame(notes + last))


class RemoteGame(Game):
    """The child's ``game``: ``result``, ``terminal_test`` and ``to_move`` of a state whose
    facts were told (see :mod:`worker.sandbox.protocol`) are answered here, without a round
    trip; the last two are visits, reported by a told line with the next message (a
    ``result`` so answered is no visit and is not reported). Anything else, and a state
    whose facts are not known, takes :class:`Game`'s way: a request."""

    __slots__ = ("_children", "_facts", "_told_line")

    def __init__(self, backend: RemoteBackend) -> None:
        super().__init__(backend)
        # The backend's own tables (it clears them in place, never replaces them).
        self._children = backend._children
        self._facts = backend._facts
        self._told_line = backend.told

    def actions(self, state: object) -> list[str]:
        # Game's way, one call shorter for a state of ours: a search asks it at every node.
        token = state._token if type(state) is State else None
        if token is None:
            return Game.actions(self, state)
        answer: Any = self._backend.request("actions", token, None)
        if type(answer) is Refusal:
            raise GameError(answer.message)
        return list(answer)

    def result(self, state: object, action: object) -> State:
        if type(state) is State and type(action) is str:
            children = self._children.get(state._token)
            if children is not None:
                child = children.get(action)
                if child is not None:
                    return State(child, self)
        return Game.result(self, state, action)

    def terminal_test(self, state: object) -> bool:
        known = self._told("terminal_test", state)
        return Game.terminal_test(self, state) if known is None else known[0]

    def to_move(self, state: object) -> str:
        known = self._told("to_move", state)
        return Game.to_move(self, state) if known is None else known[1]

    def _told(self, method: str, state: object) -> tuple[bool, str] | None:
        """The told facts of ``state`` (terminal, who moves), the call reported as answered
        from them; None when they are not known."""
        if not isinstance(state, State):
            return None
        known = self._facts.get(state._token)
        if known is not None:
            self._told_line(encode_told(method, state._token, None))
        return known


def receive() -> bytes:
    """One message from the trusted side; exits quietly when the trusted side hangs up."""
    return _receive_rest(os.read(ANSWERS_FD, 65536))[HEADER:]


def _receive_rest(data: bytes) -> bytes:
    """The whole message (length included) whose first bytes are ``data``, read to its end;
    exits quietly when the trusted side hangs up."""
    while len(data) < HEADER or len(data) < HEADER + int.from_bytes(data[:HEADER], "little"):
        more = os.read(ANSWERS_FD, 65536)
        if not more:
            os._exit(0)  # the trusted side ended the run
        data += more
    return data


class ChannelOutput(io.RawIOBase):
    """The student's stdout and stderr: each buffered block is one output message (``O``).

    Prints share the channel with the requests, so the trusted side waits on one pipe only.
    """

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        block = bytes(data[:_OUTPUT_BLOCK])
        os.write(REQUESTS_FD, frame(b"O" + block))
        return len(block)


def _redirect_output() -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    streams = []
    for name in ("stdout", "stderr"):
        buffered = io.BufferedWriter(ChannelOutput(), buffer_size=_OUTPUT_BLOCK)
        stream = io.TextIOWrapper(buffered, encoding="utf-8", errors="backslashreplace")
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
        streams.append(stream)
    return streams[0], streams[1]


_IMPORTABLE = ", ".join(IMPORTABLE)


class _NoImports:
    """The last finder: modules the fork-server did not load cannot be loaded (no open())."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        raise ModuleNotFoundError(
            f"No module named {name!r} can be imported here; these can: {_IMPORTABLE}",
            name=name,
        )


def _restrict_imports() -> None:
    sys.meta_path[:] = [BuiltinImporter, FrozenImporter, _NoImports]
    sys.path_hooks.clear()
    sys.path_importer_cache.clear()
    sys.path[:] = []


def run_child(
    confinement: Confinement, plan: ChildPlan, answers_fd: int, requests_fd: int
) -> NoReturn:
    """The child's whole life; never returns."""
    try:
        arrange_fds(answers_fd, requests_fd)
    except BaseException as error:
        _fail(requests_fd, f"arranging the student's descriptors failed: {error!r}")
    try:
        # Before confining, whose last steps move the child to the grader's CPU: this work
        # (dropping the import caches touches many pages) then does not compete with the
        # grader's current run, and none of it is part of the next.
        stdout, stderr = _redirect_output()
        _restrict_imports()
        warm_up()
    except BaseException as error:
        _fail(REQUESTS_FD, f"preparing the student's process failed: {error!r}")
    try:
        confine(confinement, plan)
    except BaseException as error:
        _fail(REQUESTS_FD, f"confining the student's process failed: {error!r}")
    trusted = True
    while True:
        # One tree per job; after its report the child waits for the next tree's job, and
        # ends when the trusted side kills it or hangs up (see worker.sandbox.session).
        try:
            source, filename, spec, root, root_facts = decode_job(receive())
            backend = RemoteBackend(root_facts)
        except BaseException as error:
            if not trusted:
                os._exit(0)  # only the student's code can have broken it; nothing to say
            _fail(REQUESTS_FD, f"preparing the student's process failed: {error!r}")
        # From here on, a failure report could be the student's forgery (see treeserver).
        trusted = False
        os.write(REQUESTS_FD, _STARTED)
        _run_tree(source, filename, spec, backend, root, (stdout, stderr))


def _run_tree(
    source: str,
    filename: str,
    spec: EntrySpec,
    backend: RemoteBackend,
    root: str,
    streams: tuple[io.TextIOWrapper, io.TextIOWrapper],
) -> None:
    """Search one tree with a freshly loaded module and send the report."""
    try:
        result = run_student(source, filename, spec, backend, root, RemoteGame(backend))
        report = encode_report(result)
    except MemoryError:
        report = b""
    except BaseException as error:
        # The harness itself failed (or the student's code tampered with it).
        _fail(REQUESTS_FD, f"the harness failed: {type(error).__name__}")
    for stream in streams:
        # A broken stream loses the output, not the run.
        with contextlib.suppress(BaseException):
            stream.flush()
    try:
        if not report:
            raise MemoryError
        backend.finish(report)
    except MemoryError:
        os.write(REQUESTS_FD, _OUT_OF_MEMORY)


def _fail(fd: int, message: str) -> NoReturn:
    try:
        os.write(fd, frame(b"X" + message.encode("utf-8", "replace")[:4000]))
    finally:
        os._exit(0)
