"""The wire format between the child and the trusted side, read strictly on the trusted side."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.observed import Call, Return, ValueProblem
from worker.harness.host import ProtocolViolation
from worker.harness.student import StudentError, StudentResult
from worker.harness.values import describe_value
from worker.sandbox.protocol import (
    MAX_MESSAGE,
    Unframer,
    decode_answer,
    encode_answer,
    encode_told,
    frame,
    parse_request,
)
from worker.sandbox.reports import (
    VALUE_FIELD_LIMIT,
    NoteReader,
    encode_call,
    encode_helper,
    encode_report,
    encode_return,
    read_note,
    read_report,
)

numbers = st.one_of(
    st.integers(),
    st.floats(allow_nan=True),
    st.fractions(),
    st.integers(min_value=2**1000, max_value=2**1100),
    st.none(),
    st.booleans(),
    st.text(max_size=5),
)


@given(numbers, numbers, numbers)
def test_notes_read_back_as_described(alpha: object, beta: object, value: object) -> None:
    described = [describe_value(obj) for obj in (alpha, beta, value)]
    line = encode_call("max_value", "0123456789abcdef", described[0], described[1], None)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    function, token, values = read_note(line[1:-1], 3)
    assert (function, token, values[2]) == ("max_value", "0123456789abcdef", None)
    for sent, received in zip(described[:2], values[:2], strict=True):
        assert received is not None
        value, problem, shown = received
        if sent[1] is ValueProblem.TOO_LARGE:
            assert value is None and problem is not None
            continue
        assert problem is sent[1]
        assert value == sent[0] or (value is None and sent[0] is None)
        assert type(value) is type(sent[0])
        assert shown == sent[2][: len(shown)]
    _, _, (returned,) = read_note(encode_return("min_value", "ab", described[2])[1:-1], 1)
    assert returned is not None
    if described[2][1] is not ValueProblem.TOO_LARGE:
        assert returned[1] is described[2][1]


@pytest.mark.parametrize(
    "line",
    [
        b"max_value",  # too few fields
        b"max_value\tab\ti1\ti2\t\textra",
        b"max_value\tab\tx1\t\t",  # unknown value kind
        b"max_value\tab\ti1.5\t\t",  # not an int
        b"max_value\tab\tfone\t\t",
        b"max_value\tab\ti" + b"9" * 50 + b"\t\t",  # too long for a plain int
        b"max_value\tab\tj{\t\t",  # bad JSON
        b'max_value\tab\tj["x", null, "x"]\t\t',  # a string is not a number
        b"max_\xffvalue\tab\t\t\t",
    ],
)
def test_a_malformed_note_is_a_violation(line: bytes) -> None:
    with pytest.raises(ProtocolViolation):
        read_note(line, 3)
    with pytest.raises(ProtocolViolation):
        NoteReader(ENTRIES, NAMES).call(b"C" + line)


ENTRIES = ("max_value", "min_value")
NAMES = {b"ab": "B"}
"""A note reader's handles: ``ab`` is node B."""


@given(numbers, numbers, numbers)
def test_a_note_reader_records_what_read_note_reads_again_and_again(
    alpha: object, beta: object, value: object
) -> None:
    call = encode_call("max_value", "ab", describe_value(alpha), describe_value(beta), None)
    returned = encode_return("min_value", "ab", describe_value(value))
    reader = NoteReader(ENTRIES, NAMES)
    _, _, (sent_alpha, sent_beta, _) = read_note(call[1:-1], 3)
    _, _, (sent_value,) = read_note(returned[1:-1], 1)
    assert sent_alpha is not None and sent_beta is not None and sent_value is not None
    for _ in range(2):
        assert reader.call(call[:-1]) == Call("B", "max_value", sent_alpha[0], sent_beta[0])
        assert reader.returned(returned[:-1]) == Return("B", "min_value", *sent_value)


def test_a_note_about_a_state_that_is_not_ours_is_checked_and_not_recorded() -> None:
    reader = NoteReader(ENTRIES, NAMES)
    assert reader.call(b"Cmax_value\tzz\ti1\t\t") is None
    assert reader.returned(b"Rmax_value\tzz\ti1") is None
    with pytest.raises(ProtocolViolation):
        reader.call(b"Cmax_value\tz\xff\ti1\t\t")
    with pytest.raises(ProtocolViolation):
        reader.returned(b"Rmax_value\tab\t")  # a return without a value


def test_a_note_of_a_function_that_is_not_an_entry_point_is_a_violation() -> None:
    line = encode_call("helper", "ab", None, None, None)
    read_note(line[1:-1], 3)
    with pytest.raises(ProtocolViolation, match="malformed call report"):
        NoteReader(ENTRIES, NAMES).call(line[:-1])


@given(numbers, st.integers(min_value=0, max_value=10**12), st.booleans())
def test_a_helpers_note_reads_back_as_sent(value: object, start: int, outermost: bool) -> None:
    described = describe_value(value)
    number = described if described[1] is None else None
    line = encode_helper("min_value", "ab", start, number, outermost)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    reader = NoteReader(ENTRIES, NAMES)
    for _ in range(2):
        name, function, at, read, flag = reader.helper(line[:-1])
        assert (name, function, at, flag) == ("B", "min_value", start, outermost)
        if number is None:
            assert read is None
        else:
            assert read is not None and read[0] == number[0] and read[1] is None
    assert reader.helper(line[:-1].replace(b"\tab\t", b"\tzz\t"))[0] is None  # not ours


@pytest.mark.parametrize(
    "line",
    [
        b"Hf\tab\t0\ti1",  # too few fields
        b"Hf\tab\t0\ti1\t1\t",  # too many
        b"H\tab\t0\ti1\t1",  # no name
        b"H" + b"x" * 65 + b"\tab\t0\ti1\t1",  # too long a name
        b"Hf\xe9\tab\t0\ti1\t1",  # not ASCII
        b"Hf\x07\tab\t0\ti1\t1",  # not printable
        b"Hf\tab\t-1\ti1\t1",  # a count of game calls that is not digits
        b"Hf\tab\t" + b"9" * 16 + b"\ti1\t1",
        b"Hf\tab\t0\tx1\t1",  # not a value
        b"Hf\tab\t0\ti1\t2",  # a flag that is neither empty nor 1
        b"Hf\tz\xff\t0\ti1\t1",  # a handle that is not ASCII
    ],
)
def test_a_malformed_helpers_note_is_a_violation(line: bytes) -> None:
    with pytest.raises(ProtocolViolation):
        NoteReader(ENTRIES, NAMES).helper(line)


def test_a_nan_float_note_is_read_as_not_finite() -> None:
    _, _, values = read_note(b"f\tab\tfnan", 1)
    assert values[0] == (None, ValueProblem.NOT_FINITE, "nan")


def test_infinite_bounds_travel_as_floats() -> None:
    line = encode_call("f", "t", describe_value(-math.inf), describe_value(math.inf), None)
    _, _, values = read_note(line[1:-1], 3)
    assert values[0] == (-math.inf, None, "-inf") and values[1] == (math.inf, None, "inf")


def test_answers_carry_the_childrens_facts_only_when_given() -> None:
    facts = [("aa", True, "MIN"), ("bb", False, "MIN")]
    body = encode_answer("actions", ["a1", "a2"], facts)[4:]
    assert decode_answer("actions", body) == (["a1", "a2"], facts)
    body = encode_answer("utility", Fraction(1, 3))[4:]
    assert decode_answer("utility", body) == (Fraction(1, 3), None)
    outcomes = [("a1", Fraction(1, 2)), ("a2", Fraction(1, 2))]
    body = encode_answer("chance_outcomes", outcomes, facts)[4:]
    assert decode_answer("chance_outcomes", body) == (outcomes, facts)


def test_a_told_line_parses_as_its_call() -> None:
    line = encode_told("result", "0123456789abcdef", "a1")
    assert line.endswith(b"\n")
    assert parse_request(line[:-1]) == ("result", b"0123456789abcdef", "a1")
    assert parse_request(encode_told("terminal_test", "ab", None)[:-1]) == (
        "terminal_test",
        b"ab",
        None,
    )


def test_a_report_always_fits_one_message() -> None:
    # The worst case: every text at its limit, of characters JSON writes as six bytes.
    noisy = "\x01" * 10_000
    result = StudentResult(
        decision=noisy,
        defines=tuple(noisy + str(i) for i in range(200)),
        error=StudentError("runtime", noisy, 3, None, noisy, tuple(noisy for _ in range(50))),
    )
    report = encode_report(result)
    assert len(report) <= MAX_MESSAGE
    read = read_report(report[1:])
    assert read.error is not None and read.error.kind == "runtime" and read.error.line == 3


@given(st.lists(st.binary(max_size=300), max_size=8), st.lists(st.integers(0, 2500), max_size=6))
def test_messages_cut_anywhere_come_out_whole_and_in_order(
    bodies: list[bytes], cuts: list[int]
) -> None:
    stream = b"".join(frame(body) for body in bodies)
    points = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    frames = Unframer()
    read = []
    for start, end in pairwise(points):
        read += frames.feed(stream[start:end])
    assert read == bodies
    assert list(frames.feed(frame(b"next"))) == [b"next"]  # nothing was left over


def test_a_declared_length_over_the_limit_is_a_violation() -> None:
    frames = Unframer()
    assert list(frames.feed(frame(b"?t")[:3])) == []  # a part of a message waits
    assert list(frames.feed(frame(b"?t")[3:])) == [b"?t"]
    with pytest.raises(ProtocolViolation, match="longer than"):
        Unframer().feed((MAX_MESSAGE + 1).to_bytes(4, "little") + b"x")


def test_the_longest_values_the_child_sends_are_read() -> None:
    # A fraction of two 1,024-bit integers, and a problem whose shown text is 80 characters
    # that JSON writes as surrogate pairs (12 bytes each): the field limit lets both in.
    fraction = describe_value(Fraction(-(2**1024 - 1), 2**1024 - 3))
    rigged = describe_value(type("\U0001f600" * 100, (), {})())
    for described in (fraction, rigged):
        line = encode_return("max_value", "0123456789abcdef", described)
        assert len(line.split(b"\t")[2]) - 2 <= VALUE_FIELD_LIMIT  # without "j" and newline
        _, _, (value,) = read_note(line[1:-1], 1)
        assert value is not None and value[:2] == described[:2]


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        (b"j" + b" " * VALUE_FIELD_LIMIT + b'[1, null, "1"]', "longer than"),
        (b"j" + json.dumps([2**1024, None, "x"]).encode(), "1,024 bits"),
        (b"j" + json.dumps([[1, -(2**1024)], None, "x"]).encode(), "1,024 bits"),
        (b"j" + json.dumps([[1, 3], None, "x", 10**400]).encode(), "1,024 bits"),
    ],
    ids=["too long", "huge integer", "huge denominator", "huge anywhere"],
)
def test_a_value_field_no_child_makes_is_refused(field: bytes, problem: str) -> None:
    with pytest.raises(ProtocolViolation, match=problem):
        read_note(b"max_value\t0123456789abcdef\t" + field, 1)


def test_a_report_with_a_huge_integer_is_refused() -> None:
    report = encode_report(StudentResult(error=StudentError("runtime", "x", 3)))
    with pytest.raises(ProtocolViolation, match="1,024 bits"):
        read_report(report[1:].replace(b"3", str(10**400).encode(), 1))
