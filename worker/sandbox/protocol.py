"""The wire between the trusted side and the student's process: two pipes, framed messages.

A pipe round trip is the cheapest this machine offers (measured against SEQPACKET and
stream sockets in ``bench/sandbox_roundtrip.py``). Every message is a 4-byte little-endian
length and a body. From the child (untrusted) to the trusted side a body holds zero or more
*notes* (an entry function's call or return, or what a function of the student's file
returned for a state, one line each: see :mod:`worker.sandbox.reports`) followed by at most
one *request* or the final *report*; printed output travels in bodies of its own::

    C["max_value","3fa4...",[-Infinity,null,"-inf"],[Infinity,null,"inf"],null]\\n
    Hmin_value\\t3fa4c0d1e2b5a697\\t12\\ti3\\t1\\n   min_value(state) returned 3
    ?t3fa4c0d1e2b5a697          game.terminal_test(state)
    ?r3fa4c0d1e2b5a697\\0a1      game.result(state, "a1")
    Ohello                      printed output (stdout and stderr), a body per block
    !{...}                      the student's result (JSON), the last message

The trusted side parses these by hand or with ``json``; nothing from the child is
unpickled or unmarshalled. A request without notes is the usual message, and is read on a
short way (see :class:`~worker.sandbox.treeserver.TreeServer`): a whole message of one
request, checked as strictly as any other. From the trusted side to the child go the job
and the answers, ``marshal``-encoded (safe in this direction: the child can only hurt
itself): a kind byte (``v`` a value, ``f`` a value with what it tells of the children,
``r`` a refusal and its text) and the marshalled value.

One round trip per visited node: the answer to ``actions``, ``successors`` or
``chance_outcomes`` of a state also tells, for each child, its handle, whether it is
terminal and who moves there (the job tells it of the root). The child answers ``result``,
``terminal_test`` and ``to_move`` from these facts itself, and reports every such
``terminal_test`` and ``to_move`` (visits), in order, with its next message (``=`` lines);
a ``result`` so answered is no visit and is not reported::

    =t3fa4c0d1e2b5a697\n        game.terminal_test(state), answered from told facts

The same request asked again gets the same answer, given again without being worked out
anew (the facts of the children, told once, are not told again), and is recorded as
every request is: the trace is what arrived, request by request.

Calls that return a value or a state's children (``utility``, ``eval``, ``actions``,
``successors``, ``chance_outcomes``) always wait for the trusted side's answer, so no
search can learn a value, or what lies below a state, without its request on record.
"""

from __future__ import annotations

import marshal
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from worker.harness.backend import Refusal
from worker.harness.host import ProtocolViolation
from worker.harness.results import EntrySpec

HEADER = 4
MAX_MESSAGE = 65536
"""The longest body the child may send; a longer one is a violation."""
MAX_ARGUMENT = 1024
"""Longer action strings are cut by the child: no tree has such an action."""

REQUEST = ord("?")
REPORT = ord("!")
FAILURE = ord("X")
"""The child's own setup failed (believed only before the student's code started)."""
STARTED = ord("S")
"""The child has the job and starts the student's code."""
TOLD = ord("=")
"""A call the child answered from told facts (reported, not answered)."""
CALL = ord("C")
RETURN = ord("R")
HELPER = ord("H")
"""What a function of the student's file returned for a state, where no entry function is
wrapped (see :mod:`worker.harness.observer`): a note, read as the others are."""
OUTPUT = ord("O")
"""A block of the student's printed output (stdout and stderr)."""

METHOD_CODES = {
    "terminal_test": b"t",
    "utility": b"u",
    "actions": b"a",
    "result": b"r",
    "successors": b"s",
    "eval": b"e",
    "chance_outcomes": b"c",
    "to_move": b"m",
    "generate": b"g",
}
METHODS = {code[0]: method for method, code in METHOD_CODES.items()}

TOLD_METHODS = frozenset({"result", "terminal_test", "to_move"})
"""What the child may answer from told facts."""
TOLD_CODES = {METHOD_CODES[method][0]: method for method in sorted(TOLD_METHODS)}
"""The same, by their code on the wire."""

Facts = list[tuple[str, bool, str]]
"""Per child, in order: (handle, terminal, who moves) (see ``TreeHost.lookahead``)."""

_VALUE = b"v"
_WITH_FACTS = b"f"
_REFUSAL = b"r"
_VALUE_CODE, _WITH_FACTS_CODE = _VALUE[0], _WITH_FACTS[0]
_NUMBERS = frozenset({"utility", "eval"})
"""Requests answered by a number (an exact fraction travels as a pair)."""
TOKEN_LENGTH = 16
"""The length of the trusted side's handles (8 random bytes in hex)."""


def frame(body: bytes) -> bytes:
    """``body`` with its length in front."""
    return len(body).to_bytes(HEADER, "little") + body


class Unframer:
    """Cuts the child's byte stream into bodies; a declared length over the limit is a
    violation (the stream cannot be trusted after it)."""

    __slots__ = ("buffered",)

    def __init__(self) -> None:
        self.buffered = bytearray()
        """The start of a message not yet whole (empty between messages)."""

    def feed(self, data: bytes) -> Sequence[bytes]:
        """The bodies completed by ``data``, in order."""
        buffer = self.buffered
        if not buffer and int.from_bytes(data[:HEADER], "little") == len(data) - HEADER:
            return (data[HEADER:],)  # the common case: exactly one whole message
        buffer += data
        bodies = []
        while len(buffer) >= HEADER:
            size = int.from_bytes(buffer[:HEADER], "little")
            if size > MAX_MESSAGE:
                raise ProtocolViolation(f"a message longer than {MAX_MESSAGE:,} bytes")
            if len(buffer) < HEADER + size:
                break
            bodies.append(bytes(buffer[HEADER : HEADER + size]))
            del buffer[: HEADER + size]
        return bodies


# --- trusted side -------------------------------------------------------------------------


def encode_job(
    source: str, filename: str, spec: EntrySpec, root_token: str, root_facts: Facts
) -> bytes:
    """What the child needs to run: the source, how to call it, the root's handle and
    facts (a list of one)."""
    fields = (
        source,
        filename,
        spec.algorithm,
        tuple(spec.entry_points),
        spec.root_kind,
        spec.depth_limit,
        spec.recursion_limit,
        spec.call_lines,
        spec.contract,
        spec.contract_options,
        spec.seed,
        root_token,
        root_facts,
    )
    return frame(marshal.dumps(fields))


_PLAIN_ANSWERS: dict[tuple[type, object], bytes] = {}
"""Framed answers that are a bool or a small int (a search asks for the same few utilities
over and over), made once."""
_PLAIN_KEPT = 1024


def encode_answer(method: str, answer: object, facts: Facts | None = None) -> bytes:
    """One framed answer of the tree host, with exact fractions as (numerator, denominator),
    and the children's facts when given."""
    if facts is None and (type(answer) is int or type(answer) is bool):
        key = (type(answer), answer)
        made = _PLAIN_ANSWERS.get(key)
        if made is None:
            made = frame(_VALUE + marshal.dumps(answer))
            if len(_PLAIN_ANSWERS) < _PLAIN_KEPT:
                _PLAIN_ANSWERS[key] = made
        return made
    if type(answer) is Refusal:
        return frame(_REFUSAL + answer.message.encode())
    plain: Any
    if method == "chance_outcomes":
        assert isinstance(answer, list)
        plain = [(action, _plain(p)) for action, p in answer]
    else:
        plain = _plain(answer)
    if facts is None:
        return frame(_VALUE + marshal.dumps(plain))
    return frame(_WITH_FACTS + marshal.dumps((plain, facts)))


def _plain(value: object) -> Any:
    if type(value) is Fraction:
        return (value.numerator, value.denominator)
    return value


def parse_request(line: bytes) -> tuple[str, bytes, str | None]:
    """(method, handle as it came, argument) of a request or told line (``?...``, ``=...``);
    an unknown method is a violation."""
    method = METHODS.get(line[1]) if len(line) > 1 else None
    if method is None:
        raise ProtocolViolation("an unknown game request")
    token, separator, argument = line[2:].partition(b"\0")
    return method, token, argument.decode("utf-8", "replace") if separator else None


# --- child side ---------------------------------------------------------------------------


def encode_request(method: str, token: object, argument: str | None) -> bytes:
    """A request body; a token that is not ours is sent as it is (or empty): the trusted
    side rejects it."""
    text = token if type(token) is str else ""
    body = b"?" + METHOD_CODES[method] + text.encode("utf-8", "replace")
    if argument is None:
        return body
    if len(argument) > MAX_ARGUMENT:
        argument = argument[:MAX_ARGUMENT]
    return body + b"\0" + argument.encode("utf-8", "replace")


def request_head(method: str) -> bytes:
    """The start of the framed request for ``method`` about a handle of
    :data:`TOKEN_LENGTH` ASCII characters without an argument (the handle follows)."""
    return frame(b"?" + METHOD_CODES[method] + b"\0" * TOKEN_LENGTH)[:-TOKEN_LENGTH]


def decode_answer(method: str, body: bytes | memoryview) -> tuple[Any, Facts | None]:
    """The answer to ``method`` as the game returns it (a Refusal for a refused request),
    and the children's facts if the answer carries them."""
    kind = body[0]
    told = None
    if kind == _VALUE_CODE:
        answer = marshal.loads(body[1:])
        if method in _NUMBERS:
            return _number(answer), None
    elif kind == _WITH_FACTS_CODE:
        answer, told = marshal.loads(body[1:])
    else:
        return Refusal(bytes(body[1:]).decode()), None
    if method == "chance_outcomes":
        answer = [(action, _number(p)) for action, p in answer]
    return answer, told


def _number(value: Any) -> Any:
    return Fraction(*value) if type(value) is tuple else value


def decode_job(body: bytes) -> tuple[str, str, EntrySpec, str, Facts]:
    """(source, filename, spec, root token, root facts) from :func:`encode_job`."""
    fields = marshal.loads(body)
    (source, filename, algorithm, entries, root_kind, depth, recursion, lines, contract,
     options, seed, root, facts) = fields  # fmt: skip
    spec = EntrySpec(
        algorithm, tuple(entries), root_kind, depth, recursion, lines, contract, options, seed
    )
    return source, filename, spec, root, facts


def encode_told(method: str, token: str, argument: str | None) -> bytes:
    """The line reporting a call the child answered from told facts."""
    line = b"=" + METHOD_CODES[method] + token.encode()
    if argument is not None:
        line += b"\0" + argument.encode()
    return line + b"\n"
