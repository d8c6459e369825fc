"""The trusted side of a sandboxed run: serve the tree over the channel, collect the output.

One loop reads the child's messages until it reports, breaks the protocol, floods its
output, or the wall-clock deadline passes. Each request is answered by a
:class:`~worker.harness.host.TreeHost`, which records it: the trace is what arrived here.
A request asked again is answered from the answer kept for it, and recorded as the first
was (the host counts and records it; only working the answer out is saved). A round trip
costs the grader a ``read`` and a ``write`` (and a ``poll`` when the child is slower).
What reading the notes may cost is bounded per tree
(:class:`~worker.sandbox.bounds.NoteBounds`); all of the loop's work happens before the
tree's deadline, which counts it as the submission's.
"""

from __future__ import annotations

import errno
import math
import os
import select
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NoReturn

from reference.observed import VISIT_METHODS, Visit
from worker.harness.backend import Refusal
from worker.harness.host import ProtocolViolation, TreeHost
from worker.harness.results import StudentResult
from worker.sandbox.bounds import NoteBounds
from worker.sandbox.protocol import (
    CALL,
    FAILURE,
    HEADER,
    HELPER,
    MAX_MESSAGE,
    OUTPUT,
    REPORT,
    REQUEST,
    RETURN,
    STARTED,
    TOLD,
    TOLD_CODES,
    Unframer,
    encode_answer,
    parse_request,
)
from worker.sandbox.reports import NoteReader, read_report

_READ_SIZE = HEADER + MAX_MESSAGE
_SAME_ANSWER = frozenset(
    {
        "terminal_test",
        "to_move",
        "actions",
        "successors",
        "chance_outcomes",
        "utility",
        "eval",
        "result",
    }
)
"""Requests answered the same whenever asked again about the same node (with the same
argument): nothing but the request's record changes (``result`` made its handle the first
time; ``generate`` records a visit of the child, and is not here)."""
_Asked = tuple[str, Visit | None, bytes | None, str, object]
"""A request asked before: its node, the record of its visit (None: no visit), its framed
answer to send again (None until it is asked again: most requests are asked once), its
method and its answer (None once framed)."""
ANSWERS_PER_NODE = 4
ANSWERS_FIXED = 1000
"""Answers kept per tree: a node is asked about by a handful of methods, and each edge's
``result`` once; an answer not kept is worked out again."""
CPU_CHECK_SECONDS = 0.1
MAX_STRETCH = 30.0
"""How far waits for a CPU may move a deadline: up to this many times the real time it
first gave. A search's own time stays bounded by its CPU and idle limits; waits for a CPU
are the machine's doing (seen: the fast lane's processes, one session, weighed by the
kernel as one among six spinning sessions, waited more than four times what they ran)."""
"""How often a run's CPU time is read while it goes on (a child that searches several
trees has one CPU limit for all of them; each tree's share is checked here)."""


class Ending(StrEnum):
    """Why the serving loop stopped."""

    REPORTED = "reported"
    CLOSED = "closed"
    TIMEOUT = "timeout"
    CPU_LIMIT = "cpu limit"
    IDLE = "idle"
    VIOLATION = "violation"
    OUTPUT_FLOOD = "output flood"
    FAILURE = "failure"


@dataclass(slots=True)
class Served:
    """What the loop saw: how it ended, the report if any, and the (truncated) output."""

    ending: Ending
    result: StudentResult | None = None
    message: str = ""
    output: bytearray = field(default_factory=bytearray)
    output_total: int = 0
    started: bool = False
    """The child said it starts the student's code (nothing before that is the student's)."""
    fresh: bool = True
    """The child had run no student code before this tree (see :class:`TreeServer`)."""


class _Stop(Exception):
    def __init__(self, ending: Ending, message: str = "") -> None:
        super().__init__(message)
        self.ending = ending
        self.message = message


class TreeServer:
    """Serves one run: ``host`` answers what arrives on ``requests_fd``; answers go out on
    ``answers_fd``. Both are made non-blocking."""

    def __init__(
        self,
        host: TreeHost,
        requests_fd: int,
        answers_fd: int,
        functions: tuple[str, ...],
        *,
        output_limit: int,
        output_flood: int,
        bounds: NoteBounds,
        cpu_used: Callable[[], float] | None = None,
        cpu_limit: float = math.inf,
        idle_used: Callable[[], float] | None = None,
        idle_limit: float = math.inf,
        waited: Callable[[], float] | None = None,
        fresh: bool = True,
    ) -> None:
        self.host = host
        self.requests_fd = requests_fd
        self.answers_fd = answers_fd
        os.set_blocking(requests_fd, False)
        os.set_blocking(answers_fd, False)
        self.notes_read = NoteReader(functions, host.wire_names)
        self.events = host.observed.events
        self.output_limit = output_limit
        self.output_flood = output_flood
        self.bounds = bounds
        self.notes = 0
        self._last_game_call = (0, 0)
        """The count of notes at the last game call (request or told line) that this loop
        has seen, and the host's count of game calls then."""
        self.decode_seconds = 0.0
        """CPU time spent reading packets that hold values written as JSON, and the report."""
        self.started = False
        self.fresh = fresh
        """True for a child that has not yet run any student code: until it says it
        starts, its failure reports are believed."""
        self.cpu_used = cpu_used
        self.cpu_limit = cpu_limit
        self.idle_used = idle_used
        """Seconds the child has spent neither running, nor waiting for a CPU, nor waiting
        for this loop (see :func:`worker.sandbox.session.SchedClock`), read with its CPU."""
        self.idle_limit = idle_limit
        self.waited = waited
        """Seconds the child and this loop have spent waiting for a CPU (see
        :func:`worker.sandbox.session.SchedClock`): the deadline stretches by them, up to
        ``MAX_STRETCH`` times the time it first gave, so that a busy machine does not make a
        search run out of real time (its CPU and idle limits still hold)."""
        self.deadline_stretch = 0.0
        """Seconds the deadline was moved by waits for a CPU."""
        self.served = Served(Ending.CLOSED, fresh=fresh)
        self._deadline = 0.0
        self._stretch_limit = 0.0
        self._answers: dict[bytes, _Asked] = {}
        """Each request asked before (as it came: method, handle and argument): the answer
        to the same request is the same again (``_SAME_ANSWER``), and is not worked out
        anew; one visit is recorded as often as it is made (a record never changes)."""
        self._answers_kept = ANSWERS_PER_NODE * len(host.tree) + ANSWERS_FIXED

    def serve(self, job: bytes, deadline: float) -> Served:
        """Send the job, then answer requests until the run ends; never raises for anything
        the child does."""
        self._deadline = deadline
        self._stretch_limit = MAX_STRETCH * max(deadline - time.monotonic(), 0.0)
        served = self.served
        try:
            self._send(job)
            self._loop()
        except _Stop as stop:
            served.ending, served.message = stop.ending, stop.message
        except ProtocolViolation as violation:
            served.ending, served.message = Ending.VIOLATION, str(violation)
        return served

    def _loop(self) -> None:
        poller = select.poll()
        poller.register(self.requests_fd, select.POLLIN)
        wait, read, fd, clock = poller.poll, os.read, self.requests_fd, time.monotonic
        frames = Unframer()
        answers, again = self._answers, self.host.record_again
        deadline = self._deadline
        cpu_used, cpu_limit = self.cpu_used, self.cpu_limit
        idle_used, idle_limit = self.idle_used, self.idle_limit
        # A small limit is checked more often: a tree stopped soon after it, whatever it is.
        every = min(CPU_CHECK_SECONDS, cpu_limit / 4)
        check_at = clock() + every if cpu_used is not None else math.inf
        while True:
            now = clock()
            remaining = deadline - now
            if remaining <= 0:
                deadline = self._stretched()
                remaining = deadline - now
                if remaining <= 0:
                    raise _Stop(Ending.TIMEOUT)
            if now >= check_at:
                assert cpu_used is not None
                if cpu_used() >= cpu_limit:
                    raise _Stop(Ending.CPU_LIMIT)
                if idle_used is not None and idle_used() >= idle_limit:
                    raise _Stop(Ending.IDLE)
                check_at = now + every
            try:
                # The child often has its next message written by the time its answer is
                # sent (it runs on this CPU): then no poll is needed.
                data = read(fd, _READ_SIZE)
            except BlockingIOError:
                wait(min(remaining, check_at - now) * 1000 + 1)
                continue
            if not data:
                raise _Stop(Ending.CLOSED)
            if (
                not frames.buffered
                and data[HEADER : HEADER + 1] == b"?"
                and int.from_bytes(data[:HEADER], "little") == len(data) - HEADER
            ):
                # The common case, kept short: one whole request, one answer.
                body = data[HEADER:]
                known = answers.get(body)
                if known is None:
                    self._first_request(body)
                    continue
                if known[2] is None:
                    self._request(body)
                    continue
                again(known[0], known[1])
                self._answer(known[2])
                continue
            for body in frames.feed(data):
                if body[:1] == b"?":
                    self._request(body)
                else:
                    self._other(body)

    def _stretched(self) -> float:
        """The deadline moved by the waits for a CPU since it was last moved (within the
        stretch allowed), as the deadline passes."""
        if self.waited is not None:
            waited = min(self.waited(), self._stretch_limit)
            if waited > self.deadline_stretch:
                self._deadline += waited - self.deadline_stretch
                self.deadline_stretch = waited
        return self._deadline

    def _request(self, body: bytes) -> None:
        known = self._answers.get(body)
        if known is not None:
            # Asked before: the same answer, the request recorded as any other.
            name, visit, framed, method, answer = known
            if framed is None:  # asked a second time: what is sent again is made now
                visit = Visit(name, method) if method in VISIT_METHODS else None
                # The children's facts were told with the first answer: not again (a
                # child that forgot them asks about the children).
                framed = encode_answer(method, answer)
                self._answers[body] = (name, visit, framed, method, None)
            self.host.record_again(name, visit)
            self._answer(framed)
            return
        self._first_request(body)

    def _first_request(self, body: bytes) -> None:
        """Answer a request not asked before, and keep its answer if it never changes."""
        method, token, argument = parse_request(body)
        host = self.host
        answer, facts = host.ask(method, token, argument)
        self._answer(encode_answer(method, answer, facts))
        if (
            method in _SAME_ANSWER
            and type(answer) is not Refusal
            and len(self._answers) < self._answers_kept
        ):
            # Asked and answered: a handle of ours.
            self._answers[body] = (host.wire_names[token], None, None, method, answer)

    def _other(self, packet: bytes) -> None:
        if not packet:
            raise ProtocolViolation("an empty message from the student's process")
        tag = packet[0]
        if tag == OUTPUT:
            self._output(packet)
            return
        if tag == STARTED and not self.started:
            self.started = self.served.started = True
            return
        # Note lines, each ending with a newline, then at most one request, report or
        # failure (an action in a request may hold a newline: it is the last segment).
        lines = packet.split(b"\n")
        last = lines.pop()
        # The lines of a search's every step: read here, not through a method per line.
        host, notes_read, events, bounds = self.host, self.notes_read, self.events, self.bounds
        notes = self.notes
        # A game call since the last packet's notes (the host counts them all) starts the
        # count of notes between two game calls again.
        game_call_notes, game_calls = self._last_game_call
        if host.requests != game_calls:
            game_call_notes = notes
        per_tree, per_game_call = bounds.per_tree, bounds.per_game_call
        for index, line in enumerate(lines):
            tag = line[0] if line else -1
            if tag in (CALL, RETURN):
                notes += 1
                if notes > per_tree or notes - game_call_notes > per_game_call:
                    self._too_many_notes(notes)
                event = notes_read.call(line) if tag == CALL else notes_read.returned(line)
                if event is not None:
                    events.append(event)
            elif tag == TOLD:
                game_call_notes = notes
                method = TOLD_CODES.get(line[1]) if len(line) > 1 else None
                if method is None:
                    self._told_wrongly(line)
                host.told(method, line[2:].partition(b"\0")[0])
            elif tag == HELPER:
                notes += 1
                if notes > per_tree or notes - game_call_notes > per_game_call:
                    self._too_many_notes(notes)
                name, function, start, value, outermost = notes_read.helper(line)
                if name is not None:
                    host.helper_returned(name, function, start, value, outermost)
            else:
                last = b"\n".join([*lines[index:], last])
                break
        self.notes = notes
        self._last_game_call = (game_call_notes, host.requests)
        # Values written as JSON are what costs to read in a note: the reader starts the
        # clock at the packet's first (a clock read is a system call; any other note costs
        # little, and their number is bounded).
        began = notes_read.clock_started
        if began is not None:
            notes_read.clock_started = None
            self._charge(time.thread_time() - began)
        if not last:
            return
        tag = last[0]
        if tag == REQUEST:
            self._request(last)
        elif tag == REPORT:
            began = time.thread_time()
            self.served.result = read_report(last[1:])
            self._charge(time.thread_time() - began)
            raise _Stop(Ending.REPORTED)
        elif tag == FAILURE and self.fresh and not self.started:
            raise _Stop(Ending.FAILURE, last[1:].decode("utf-8", "replace"))
        elif tag == FAILURE:
            # Once the student's code runs it can write anything; a failure report then
            # cannot be told from a forgery, and a forgery must not pass for our fault.
            raise ProtocolViolation("a failure report after the submission's code started")
        else:
            raise ProtocolViolation("a malformed message from the student's process")

    def _too_many_notes(self, notes: int) -> NoReturn:
        bounds = self.bounds
        if notes > bounds.per_tree:
            raise ProtocolViolation(
                f"more than {bounds.per_tree:,} calls and returns of the search functions "
                "on one tree"
            )
        raise ProtocolViolation(
            f"more than {bounds.per_game_call:,} calls and returns of the search functions "
            "without a game call between them"
        )

    def _charge(self, seconds: float) -> None:
        """Count ``seconds`` of this thread's CPU time spent reading the child's values."""
        self.decode_seconds += seconds
        if self.decode_seconds > self.bounds.decode_seconds:
            raise ProtocolViolation(
                "reading the values your search reported took the grader more than "
                f"{self.bounds.decode_seconds:.2f} s of CPU time (what was left for this tree)"
            )

    @staticmethod
    def _told_wrongly(line: bytes) -> NoReturn:
        parse_request(line)  # raises for an unknown method
        raise ProtocolViolation("a call reported as answered that must be asked")

    def _output(self, packet: bytes) -> None:
        served = self.served
        data = memoryview(packet)[1:]
        room = self.output_limit - len(served.output)
        if room > 0:
            served.output += data[:room]
        served.output_total += len(data)
        if served.output_total > self.output_flood:
            raise _Stop(Ending.OUTPUT_FLOOD)

    def _answer(self, message: bytes) -> None:
        try:
            # An honest child has read every answer before it asks again: the pipe is empty.
            written = os.write(self.answers_fd, message)
        except BlockingIOError:
            raise ProtocolViolation("requests sent without reading the answers") from None
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise
            return  # the child is gone; the next read sees the end
        if written < len(message):
            self._send(message[written:])

    def _send(self, message: bytes) -> None:
        """Write all of ``message``, waiting while the child reads, up to the deadline."""
        poller = select.poll()
        poller.register(self.answers_fd, select.POLLOUT)
        view = memoryview(message)
        while view:
            try:
                view = view[os.write(self.answers_fd, view) :]
                continue
            except BlockingIOError:
                pass
            except OSError as error:
                if error.errno == errno.EPIPE:
                    return
                raise
            remaining = self._deadline - time.monotonic()
            if remaining <= 0:
                remaining = self._stretched() - time.monotonic()
            if remaining <= 0 or not poller.poll(remaining * 1000 + 1):
                raise _Stop(Ending.TIMEOUT)
