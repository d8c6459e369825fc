"""Values made safe to store and print: strict JSON, UTF-8, no NUL, no terminal controls.

Text goes through :mod:`reference.safe_json`; a report (:mod:`reference.report`) puts its
text through it and writes its numbers as strict JSON."""

from __future__ import annotations

import json
import math
import sqlite3
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.report import Report
from reference.safe_json import safe_text, terminal_text

HOSTILE = ["\x00", "\ud800", "\udbff", "\udc80", "\udfff", "\x1b", "\r", "\x07", "\x08", "\x7f"]
HOSTILE += ["\x85", "\x9b", "\\", "\n", "\t", "\u2028", "é", "\U0001f600"]

characters = st.one_of(
    st.characters(exclude_categories=()),
    st.characters(categories=["Cs", "Cc"]),  # surrogates and controls, often
    st.sampled_from(HOSTILE),
)
texts = st.text(characters, max_size=30)
"""Any Python text, lone surrogates and NUL included."""
floats = st.floats(allow_nan=True, allow_infinity=True)
values = st.one_of(st.none(), st.integers(-(2**53), 2**53), floats, texts)


@st.composite
def reports(draw: st.DrawFn) -> Report:
    """Reports as a student's code could make them: any text, any value it returned."""
    node = {"node": draw(texts), "verdict": "wrong_value", "expected": draw(values),
            "actual": draw(values), "message": draw(texts)}  # fmt: skip
    step = {"node": draw(texts), "event": "exit", "value": draw(values)}
    case = {"name": draw(texts), "hidden": False, "verdict": "failed", "message": draw(texts),
            "replay": {"student": [step], "reference": [], "truncated": False},
            "value": {"expected": draw(values), "actual": draw(values)},
            "decision": {"expected": draw(texts), "actual": draw(texts)},
            "nodes": [node]}  # fmt: skip
    return Report.model_validate(
        {
            "exercise": "e",
            "verdict": "failed",
            "score": 0.0,
            "max_score": 1,
            "message": draw(texts),
            "stdout": draw(texts),
            "cases": [case],
        }
    )


def strings(document: object) -> list[str]:
    """Every string of a parsed JSON document, keys included."""
    if isinstance(document, str):
        return [document]
    if isinstance(document, dict):
        return [*document, *(s for value in document.values() for s in strings(value))]
    if isinstance(document, list):
        return [s for value in document for s in strings(value)]
    return []


def controls(text: str) -> set[str]:
    return {c for c in text if unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t"}


@given(reports())
def test_any_report_becomes_strict_json_in_utf_8(report: Report) -> None:
    document = report.to_json()
    json.dumps(document, allow_nan=False, ensure_ascii=False).encode("utf-8")
    # Read back (as PostgreSQL reads it), no text holds what its text columns refuse.
    read = json.loads(json.dumps(document, allow_nan=False))
    for text in strings(read):
        assert "\x00" not in text
        text.encode("utf-8")


@given(reports())
def test_a_safe_report_stays_as_it_is(report: Report) -> None:
    once = report.to_json()
    assert Report.model_validate(once).to_json() == once


@given(texts)
def test_safe_text_is_utf_8_without_nul(text: str) -> None:
    shown = safe_text(text)
    shown.encode("utf-8")
    assert "\x00" not in shown


@given(texts)
def test_terminal_text_has_no_control_character_but_newline_and_tab(text: str) -> None:
    shown = terminal_text(text)
    shown.encode("utf-8")
    assert controls(shown) == set()
    assert shown.count("\n") == text.count("\n") and shown.count("\t") == text.count("\t")


@given(st.text(st.characters(exclude_categories=("Cc", "Cs"))))
def test_text_without_controls_is_left_alone(text: str) -> None:
    assert safe_text(text) == text == terminal_text(text)


def test_non_finite_floats_become_words() -> None:
    value = {"expected": math.inf, "actual": -math.inf}
    case = {"name": "t", "hidden": False, "verdict": "failed", "value": value}
    report = {"exercise": "e", "verdict": "failed", "score": 0.0, "max_score": 1,
              "message": "", "cases": [case]}  # fmt: skip
    assert Report.model_validate(report).to_json()["cases"][0]["value"] == {
        "expected": "inf",
        "actual": "-inf",
    }


def test_nul_and_lone_surrogates_are_shown() -> None:
    assert safe_text("a\x00b") == "a\\x00b"
    assert safe_text("x\ud800y\udfff") == "x\\ud800y\\udfff"
    assert safe_text("back\\slash") == "back\\slash"


def test_a_surrogate_pair_is_the_character_it_writes() -> None:
    assert safe_text("smile \ud83d\ude00") == "smile \U0001f600"
    assert safe_text("\ude00\ud83d") == "\\ude00\\ud83d"  # in the wrong order: two lone ones


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[2K\rdone", "\\x1b[2K\\x0ddone"),
        ("bell\x07 back\x08 del\x7f", "bell\\x07 back\\x08 del\\x7f"),
        ("csi\x9b next\x85", "csi\\x9b next\\x85"),
        ("nul\x00 lone\ud800", "nul\\x00 lone\\ud800"),
        ("line\n\tindented", "line\n\tindented"),
        ("été ♞ \U0001f600", "été ♞ \U0001f600"),
    ],
)
def test_terminal_text_shows_controls_escaped(text: str, shown: str) -> None:
    assert terminal_text(text) == shown


@given(reports())
def test_sqlite_stores_any_report_and_its_text(report: Report) -> None:
    safe = report.to_json()
    with sqlite3.connect(":memory:") as connection:
        connection.execute("CREATE TABLE t (document TEXT)")
        connection.execute("INSERT INTO t VALUES (?)", (json.dumps(safe, ensure_ascii=False),))
        (stored,) = connection.execute("SELECT document FROM t").fetchone()
    assert json.loads(stored) == safe
