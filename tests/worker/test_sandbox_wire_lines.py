"""The calling line on the notes' wire: sent only when recorded, read back as the number it
was, and anything but a line number is a protocol violation."""

from __future__ import annotations

import pytest

from reference.observed import Call, Return
from worker.harness.host import ProtocolViolation
from worker.harness.student import EntrySpec
from worker.harness.values import describe_value
from worker.sandbox.protocol import HEADER, decode_job, encode_job
from worker.sandbox.reports import (
    LINE_NUMBER_LIMIT,
    NoteReader,
    encode_call,
    encode_return,
)

ENTRIES = ("max_value", "min_value")
NAMES = {b"ab": "B"}


def test_a_call_and_its_return_carry_the_calling_line() -> None:
    reader = NoteReader(ENTRIES, NAMES)
    call = encode_call("min_value", "ab", describe_value(3), describe_value(float("inf")), None, 16)
    returned = encode_return("min_value", "ab", describe_value(2), 16)
    assert call.endswith(b"\t16\n") and returned.endswith(b"\t16\n")
    assert reader.call(call[:-1]) == Call("B", "min_value", 3, float("inf"), None, 16)
    assert reader.returned(returned[:-1]) == Return("B", "min_value", 2, None, "2", 16)


def test_without_a_line_the_notes_are_as_before() -> None:
    reader = NoteReader(ENTRIES, NAMES)
    assert encode_call("max_value", "ab", None, None, None) == b"Cmax_value\tab\t\t\t\n"
    assert encode_return("max_value", "ab", describe_value(1)) == b"Rmax_value\tab\ti1\n"
    assert reader.call(b"Cmax_value\tab\t\t\t").line is None  # type: ignore[union-attr]
    assert reader.returned(b"Rmax_value\tab\ti1").line is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "field",
    [b"", b"0", b"-3", b"+3", b"1.5", b"x", b"\xd9\xa3", b"1" * 9, str(LINE_NUMBER_LIMIT + 1)],
)
def test_anything_but_a_line_number_is_a_violation(field: bytes | str) -> None:
    field = field.encode() if isinstance(field, str) else field
    reader = NoteReader(ENTRIES, NAMES)
    with pytest.raises(ProtocolViolation, match="malformed call report"):
        reader.call(b"Cmax_value\tab\t\t\t\t" + field)
    with pytest.raises(ProtocolViolation, match="malformed call report"):
        reader.returned(b"Rmax_value\tab\ti1\t" + field)
    with pytest.raises(ProtocolViolation, match="malformed call report"):
        reader.call(b"Cmax_value\tab\t\t\t\t7\t7")  # one field too many


def test_the_largest_line_number_is_read() -> None:
    reader = NoteReader(ENTRIES, NAMES)
    line = str(LINE_NUMBER_LIMIT).encode()
    assert reader.call(b"Cmax_value\tab\t\t\t\t" + line).line == LINE_NUMBER_LIMIT  # type: ignore[union-attr]


@pytest.mark.parametrize("call_lines", [True, False])
def test_the_job_tells_the_child_whether_to_record_lines(call_lines: bool) -> None:
    spec = EntrySpec("alphabeta", ENTRIES, "MAX", None, 10_000, call_lines)
    job = encode_job("x = 1", "s.py", spec, "ab", [("ab", False, "MAX")])
    assert decode_job(job[HEADER:])[2] == spec
