"""What the child reports besides its requests: entry-function calls and returns (notes) and
the final result, as JSON, and their strict reading on the trusted side.

A note is one line of tab-separated fields: the function, the state's handle, then the
values (a call's alpha, beta and depth; a return's value), each empty when absent, and,
when recorded, the line of the student's file the call was made from (its digits: a line
the trusted side reads only as a number from 1 to :data:`LINE_NUMBER_LIMIT`). A plain
int travels as ``i`` and its digits, a float as ``f`` and its ``repr``; any other value as
``j`` and the JSON ``[value, problem, shown]`` of its
:data:`~worker.harness.values.Described`, with exact fractions as
``[numerator, denominator]``. The trusted side accepts only exact ints, floats and integer
pairs; anything else is a protocol violation, NaN becomes
:attr:`ValueProblem.NOT_FINITE`. What it reads is bounded before it is read: a ``j`` field
no longer than the longest the child makes (:data:`VALUE_FIELD_LIMIT`), and no integer of
more than 1,024 bits in any JSON it decodes.

A helper's note (``H``, see :mod:`worker.harness.observer`) says what a function of the
student's file returned for a state where no entry function is wrapped: the function's
name (printable ASCII, at most :data:`HELPER_NAME_LIMIT` characters), the handle, the count
of game calls before the function began (digits), the value (empty: not a number) and
``1`` when it was the outermost of the file's functions open on the state (else empty).

The limits here (``SHOWN_LIMIT``, ``MESSAGE_LIMIT``, ...) bound what the untrusted child
may send over the wire: a security bound at the trust boundary, not a report's size. What a
report keeps is decided once, later, by :func:`reference.reporting.limits.fit` with its
own limits (:class:`reference.reporting.limits.ReportLimits`).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NoReturn

from reference.observed import Call, Return, ValueProblem
from worker.harness.host import ProtocolViolation, call_event, return_event
from worker.harness.results import StudentError, StudentResult
from worker.harness.values import Described

SHOWN_LIMIT = 80
MESSAGE_LIMIT = 1000
LINE_LIMIT = 300
TRACEBACK_LIMIT = 20
NAMES_LIMIT = 100
NAMES_TEXT_LIMIT = 2000
"""The names a report lists, in characters in all."""
_PLAIN_DIGITS = 40
"""The longest plain int or float a note may carry."""
_PLAIN_INT = 10**30
"""Larger integers travel as JSON (their shown form is cut)."""
_BITS_LIMIT = 1024
"""Larger integers are reported as not usable: JSON readers refuse very long numbers."""
_INT_DIGITS = len(str(-(2**_BITS_LIMIT)))
"""The longest integer of at most ``_BITS_LIMIT`` bits in decimal, with its sign."""


# --- child side ---------------------------------------------------------------------------


def encode_call(
    function: str,
    token: str,
    alpha: Described | None,
    beta: Described | None,
    depth: Described | None,
    line: int | None = None,
) -> bytes:
    """A note line: ``function`` was called on ``token`` with these bounds / depth (from
    ``line`` of the student's file)."""
    at = "\n" if line is None else f"\t{line}\n"
    if alpha is None and beta is None and depth is None:  # minimax, expectimax, negamax
        return f"C{function}\t{token}\t\t\t{at}".encode()
    fields = (function, token, _field(alpha), _field(beta), _field(depth))
    return ("C" + "\t".join(fields) + at).encode()


def encode_return(function: str, token: str, value: Described, line: int | None = None) -> bytes:
    """A note line: ``function`` called on ``token`` (from ``line``) returned ``value``."""
    at = "\n" if line is None else f"\t{line}\n"
    return f"R{function}\t{token}\t{_field(value)}{at}".encode()


def encode_helper(
    function: str, token: str, start: int, value: Described | None, outermost: bool
) -> bytes:
    """A helper's note line: ``function`` (a name as :func:`~worker.harness.observer.
    helper_name` gives it), called on ``token`` after ``start`` game calls, returned
    ``value`` (None: not a number); ``outermost``: no other function of the file was open
    on the state."""
    flag = "1" if outermost else ""
    return f"H{function}\t{token}\t{start}\t{_field(value)}\t{flag}\n".encode()


def _field(described: Described | None) -> str:
    if described is None:
        return ""
    value, problem, shown = described
    if problem is None:
        kind = type(value)
        if kind is int and -_PLAIN_INT < value < _PLAIN_INT:  # type: ignore[operator]
            return f"i{value}"
        if kind is float:
            return "f" + shown
    return "j" + json.dumps(_wire(described))


def encode_report(result: StudentResult) -> bytes:
    """The final packet: what the top-level call returned, or why it did not. Every text
    is cut, and the names the file defines to NAMES_TEXT_LIMIT characters in all, so that
    it fits one message even when JSON escapes every character (six bytes each)."""
    error = result.error
    names: list[str] = []
    room = NAMES_TEXT_LIMIT
    for name in result.defines[:NAMES_LIMIT]:
        if room <= 0:
            break
        names.append(name[: min(LINE_LIMIT, room)])
        room -= len(names[-1])
    fields = {
        "value": _wire(result.value),
        "decision": _cut(result.decision, LINE_LIMIT),
        "decision_style": bool(result.decision_style),
        "evaluations": _wire(result.evaluations),
        "defines": names,
        "error": None
        if error is None
        else [
            error.kind,
            _cut(error.message, MESSAGE_LIMIT),
            error.line,
            error.column,
            _cut(error.exception, LINE_LIMIT),
            [line[:LINE_LIMIT] for line in error.traceback[-TRACEBACK_LIMIT:]],
        ],
    }
    return b"!" + json.dumps(fields).encode()


def _cut(text: str | None, limit: int) -> str | None:
    return None if text is None else text[:limit]


def _wire(described: Described | None) -> list[Any] | None:
    if described is None:
        return None
    value, problem, shown = described
    wire: Any = value
    if type(value) is Fraction:
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > _BITS_LIMIT:
            return [None, ValueProblem.NOT_A_NUMBER.value, "a fraction with huge terms"]
        wire = [value.numerator, value.denominator]
    elif type(value) is int and value.bit_length() > _BITS_LIMIT:
        return [None, ValueProblem.NOT_A_NUMBER.value, "a huge integer"]
    return [wire, None if problem is None else problem.value, shown[:SHOWN_LIMIT]]


# --- trusted side -------------------------------------------------------------------------

VALUE_FIELD_LIMIT = len(
    json.dumps([[-(2**_BITS_LIMIT - 1), 2**_BITS_LIMIT - 1], None, "\U0010ffff" * SHOWN_LIMIT])
)
"""The longest ``j`` field (without its tag) the child makes: a fraction of two
``_BITS_LIMIT``-bit integers and a shown text of ``SHOWN_LIMIT`` characters, each escaped
by JSON as a surrogate pair (12 bytes); a value with a problem has no integers and is
shorter. A longer field is a violation, refused before it is decoded."""


def _bounded_int(digits: str) -> int:
    if len(digits) > _INT_DIGITS:  # refused before converting: that costs time squared
        raise ProtocolViolation(f"a reported integer of more than {_BITS_LIMIT:,} bits")
    number = int(digits)
    if number.bit_length() > _BITS_LIMIT:
        raise ProtocolViolation(f"a reported integer of more than {_BITS_LIMIT:,} bits")
    return number


_DECODER = json.JSONDecoder(parse_int=_bounded_int)


def load(text: bytes) -> Any:
    """JSON from the child; anything unreadable is a violation, and so is an integer of
    more than 1,024 bits (no honest report has one)."""
    try:
        return _DECODER.decode(text.decode("utf-8"))
    except (ValueError, RecursionError):
        raise ProtocolViolation("a malformed message from the student's process") from None


def read_described(obj: object) -> Described:
    """A reported value as the trusted side records it."""
    if type(obj) is not list or len(obj) != 3:
        raise ProtocolViolation("a malformed value report")
    value, problem, shown = obj
    if type(shown) is not str:
        raise ProtocolViolation("a malformed value report")
    shown = shown[:SHOWN_LIMIT]
    if problem is not None:
        if value is not None or type(problem) is not str:
            raise ProtocolViolation("a malformed value report")
        try:
            return None, ValueProblem(problem), shown
        except ValueError:
            raise ProtocolViolation("a malformed value report") from None
    if type(value) is int:
        return value, None, shown
    if type(value) is float:
        if math.isnan(value):
            return None, ValueProblem.NOT_FINITE, "nan"
        return value, None, shown
    if type(value) is list and len(value) == 2 and all(type(part) is int for part in value):
        numerator, denominator = value
        if denominator != 0:
            return Fraction(numerator, denominator), None, shown
    raise ProtocolViolation("a reported value is not a number")


def read_note(text: bytes, values: int) -> tuple[str, str, list[Described | None]]:
    """(function, handle, values) of a note line (without its tag) carrying ``values``
    values; anything malformed is a violation."""
    fields = text.split(b"\t")
    if len(fields) != values + 2:
        raise ProtocolViolation("a malformed call report")
    try:
        function, token = fields[0].decode("ascii"), fields[1].decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolViolation("a malformed call report") from None
    return function, token, [_read_field(field) for field in fields[2:]]


HELPER_NAME_LIMIT = 64
"""The longest function name a helper's note may carry (the child notes a longer one as
``?``, see :data:`worker.harness.observer.NAME_LIMIT`)."""
_START_DIGITS = 15
"""The most digits of a helper's count of game calls (far more than any tree's cap)."""
HelperNote = tuple[str | None, str, int, Described | None, bool]
"""A helper's note as read: (node, or None for a state that is not ours; function; game
calls before it began; the number it returned, if one; outermost)."""

LINE_NUMBER_LIMIT = 10_000_000
"""The largest line number a note may carry (no file that can be submitted is longer)."""
_LINE_DIGITS = len(str(LINE_NUMBER_LIMIT))
_VALUES_KEPT = 4096
"""Distinct plain values a :class:`NoteReader` remembers (a search reports few)."""


class NoteReader:
    """Reads the note lines of one run into the events they record, strictly (as
    :func:`read_note` does), for the run's entry functions only, naming the node by
    ``names`` (handles as they come on the wire). The plain values it has read are
    remembered: a search reports the same few bounds and values over and over. A note
    about a state that is not one of ``names`` is checked and not recorded (None).

    Reading a value written as JSON costs far more than any other: the reader notes this
    thread's CPU clock when it reads the first such value (:attr:`clock_started`), for the
    caller to charge the time since and reset it."""

    __slots__ = (
        "_calls",
        "_helpers",
        "_lines",
        "_names",
        "_returns",
        "_values",
        "clock_started",
    )

    def __init__(self, functions: tuple[str, ...], names: Mapping[bytes, str]) -> None:
        # A line's first field is its tag and the function.
        self._calls = {b"C" + name.encode(): name for name in functions}
        self._returns = {b"R" + name.encode(): name for name in functions}
        self._names = names
        self._values: dict[bytes, Described | None] = {b"": None}
        self._lines: dict[bytes, int] = {}
        self._helpers: dict[bytes, str] = {}
        """Helpers' names as they came (tag included), read."""
        self.clock_started: float | None = None
        """``time.thread_time()`` when the first JSON value since the last reset was read."""

    def call(self, line: bytes) -> Call | None:
        """The call a note line (``C...``, without its newline) records."""
        fields = line.split(b"\t")
        function = self._calls.get(fields[0])
        if function is None or not 5 <= len(fields) <= 6:
            self._malformed(line, 3)
        known = self._values
        alpha = known.get(fields[2], _UNKNOWN)
        if alpha is _UNKNOWN:
            alpha = self._learn(fields[2])
        beta = known.get(fields[3], _UNKNOWN)
        if beta is _UNKNOWN:
            beta = self._learn(fields[3])
        depth = known.get(fields[4], _UNKNOWN)
        if depth is _UNKNOWN:
            depth = self._learn(fields[4])
        at = self._line(fields[5]) if len(fields) == 6 else None
        name = self._names.get(fields[1])
        if name is None:
            return self._not_ours(fields[1])
        return call_event(name, function, alpha, beta, depth, at)

    def returned(self, line: bytes) -> Return | None:
        """The return a note line (``R...``, without its newline) records."""
        fields = line.split(b"\t")
        function = self._returns.get(fields[0])
        if function is None or not 3 <= len(fields) <= 4:
            self._malformed(line, 1)
        value = self._values.get(fields[2], _UNKNOWN)
        if value is _UNKNOWN:
            value = self._learn(fields[2])
        if value is None:
            raise ProtocolViolation("a malformed call report")
        at = self._line(fields[3]) if len(fields) == 4 else None
        name = self._names.get(fields[1])
        if name is None:
            return self._not_ours(fields[1])
        return return_event(name, function, value, at)

    def helper(self, line: bytes) -> HelperNote:
        """What a helper's note line (``H...``, without its newline) says; anything
        malformed is a violation."""
        fields = line.split(b"\t")
        if len(fields) != 5:
            raise ProtocolViolation("a malformed helper report")
        function = self._helper_name(fields[0])
        start = fields[2]
        if not (start.isdigit() and start.isascii() and len(start) <= _START_DIGITS):
            raise ProtocolViolation("a malformed helper report")
        value = self._values.get(fields[3], _UNKNOWN)
        if value is _UNKNOWN:
            value = self._learn(fields[3])
        flag = fields[4]
        if flag not in (b"", b"1"):
            raise ProtocolViolation("a malformed helper report")
        name = self._names.get(fields[1])
        if name is None:
            self._not_ours(fields[1])
        return name, function, int(start), value, flag == b"1"

    def _helper_name(self, field: bytes) -> str:
        """A helper's name field (its tag first): printable ASCII, 1 to
        ``HELPER_NAME_LIMIT`` characters."""
        known = self._helpers.get(field)
        if known is not None:
            return known
        name = field[1:].decode("ascii", "replace")
        if not (0 < len(field) - 1 <= HELPER_NAME_LIMIT and field.isascii() and name.isprintable()):
            raise ProtocolViolation("a malformed helper report")
        if len(self._helpers) < _VALUES_KEPT:
            self._helpers[field] = name
        return name

    def _line(self, field: bytes) -> int:
        """A line number's field: digits, from 1 to ``LINE_NUMBER_LIMIT``."""
        known = self._lines.get(field)
        if known is not None:
            return known
        if not (field.isdigit() and field.isascii() and 0 < len(field) <= _LINE_DIGITS):
            raise ProtocolViolation("a malformed call report")
        number = int(field)
        if not 0 < number <= LINE_NUMBER_LIMIT:
            raise ProtocolViolation("a malformed call report")
        if len(self._lines) < _VALUES_KEPT:
            self._lines[field] = number
        return number

    def _learn(self, field: bytes) -> Described | None:
        if field[:1] == b"j":  # read each time: values that need JSON are rare and costly
            if self.clock_started is None:
                self.clock_started = time.thread_time()
            return _read_field(field)
        value = _read_field(field)
        if len(self._values) < _VALUES_KEPT:
            self._values[field] = value
        return value

    @staticmethod
    def _not_ours(token: bytes) -> None:
        if not token.isascii():
            raise ProtocolViolation("a malformed call report")

    @staticmethod
    def _malformed(line: bytes, values: int) -> NoReturn:
        read_note(line[1:], values)  # names the problem, if it can
        raise ProtocolViolation("a malformed call report")


_UNKNOWN: Any = object()


def _read_field(field: bytes) -> Described | None:
    if not field:
        return None
    kind, body = field[:1], field[1:]
    try:
        if kind == b"i" and len(body) < _PLAIN_DIGITS:
            return int(body), None, body.decode("ascii")
        if kind == b"f" and len(body) < _PLAIN_DIGITS:
            number = float(body)
            if math.isnan(number):
                return None, ValueProblem.NOT_FINITE, "nan"
            return number, None, body.decode("ascii")
    except (ValueError, UnicodeDecodeError):
        raise ProtocolViolation("a reported value is not a number") from None
    if kind == b"j":
        if len(body) > VALUE_FIELD_LIMIT:
            raise ProtocolViolation(f"a reported value longer than {VALUE_FIELD_LIMIT:,} bytes")
        return read_described(load(body))
    raise ProtocolViolation("a malformed value report")


def read_optional_described(obj: object) -> Described | None:
    """A bound or depth that may be absent."""
    return None if obj is None else read_described(obj)


def read_report(payload: bytes) -> StudentResult:
    """The child's final report, checked field by field."""
    fields = load(payload)
    if type(fields) is not dict:
        raise ProtocolViolation("a malformed result report")
    value = read_optional_described(fields.get("value"))
    decision = _text(fields.get("decision"), LINE_LIMIT, optional=True)
    defines = fields.get("defines")
    if type(defines) is not list:
        raise ProtocolViolation("a malformed result report")
    names = tuple(_text(name, LINE_LIMIT) or "" for name in defines[:NAMES_LIMIT])
    error = _read_error(fields.get("error"))
    style = fields.get("decision_style") is True
    evaluations = read_optional_described(fields.get("evaluations"))
    return StudentResult(value, decision, style, error, names, evaluations)


def _read_error(obj: object) -> StudentError | None:
    if obj is None:
        return None
    if type(obj) is not list or len(obj) != 6:
        raise ProtocolViolation("a malformed error report")
    kind, message, line, column, exception, lines = obj
    if kind not in ("compile", "runtime") or type(lines) is not list:
        raise ProtocolViolation("a malformed error report")
    return StudentError(
        kind,
        _text(message, MESSAGE_LIMIT) or "",
        _position(line),
        _position(column),
        _text(exception, LINE_LIMIT, optional=True),
        tuple(_text(text, LINE_LIMIT) or "" for text in lines[:TRACEBACK_LIMIT]),
    )


def _text(obj: object, limit: int, *, optional: bool = False) -> str | None:
    if obj is None and optional:
        return None
    if type(obj) is not str:
        raise ProtocolViolation("a malformed report")
    return obj[:limit]


def _position(obj: object) -> int | None:
    if obj is None:
        return None
    if type(obj) is not int or not 0 <= obj < 10**9:
        raise ProtocolViolation("a malformed error position")
    return obj
