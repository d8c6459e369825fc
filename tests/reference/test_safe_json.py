"""Values made safe to store and print: strict JSON, UTF-8, no NUL, no terminal controls."""

from __future__ import annotations

import json
import math
import sqlite3
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.safe_json import json_safe, safe_text, terminal_text

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
scalars = st.one_of(st.none(), st.booleans(), st.integers(), floats, texts)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(texts, inner, max_size=5),
    ),
    max_leaves=40,
)
"""JSON-like structures as a grading could produce them, with anything in their text."""


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


@given(documents)
def test_any_document_becomes_strict_json_in_utf_8(document: object) -> None:
    encoded = json.dumps(json_safe(document), allow_nan=False, ensure_ascii=False)
    encoded.encode("utf-8")
    # Read back (as PostgreSQL reads it), no text holds what its text columns refuse.
    read = json.loads(json.dumps(json_safe(document), allow_nan=False))
    for text in strings(read):
        assert "\x00" not in text
        text.encode("utf-8")


@given(documents)
def test_a_safe_document_stays_as_it_is(document: object) -> None:
    once = json_safe(document)
    assert json_safe(once) == once


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
    document = {"root": math.inf, "values": [-math.inf, math.nan, 2.5, 3], "ok": True}
    assert json_safe(document) == {
        "root": "inf",
        "values": ["-inf", "nan", 2.5, 3],
        "ok": True,
    }


def test_nul_and_lone_surrogates_are_shown_in_values_and_keys() -> None:
    document = {"a\x00b": ["x\ud800y", ("\udfff",)], "name": "back\\slash"}
    assert json_safe(document) == {
        "a\\x00b": ["x\\ud800y", ["\\udfff"]],
        "name": "back\\slash",
    }


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


def test_other_types_are_refused_as_json_refuses_them() -> None:
    with pytest.raises(TypeError, match="set"):
        json_safe({"a": {1, 2}})
    with pytest.raises(TypeError, match="key"):
        json_safe({(1, 2): "tuple key"})
    assert json_safe({2: "a", None: "b", True: "c", 1.5: "d", math.inf: "e"}) == json.loads(
        json.dumps({2: "a", None: "b", True: "c", 1.5: "d", "inf": "e"})
    )


@given(documents)
def test_sqlite_stores_any_safe_document_and_its_text(document: object) -> None:
    safe = json_safe(document)
    with sqlite3.connect(":memory:") as connection:
        connection.execute("CREATE TABLE t (document TEXT)")
        connection.execute("INSERT INTO t VALUES (?)", (json.dumps(safe, ensure_ascii=False),))
        (stored,) = connection.execute("SELECT document FROM t").fetchone()
    assert json.loads(stored) == safe
