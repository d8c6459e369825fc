"""Signatures stored as JSON read back equal, and tree keys name trees by content."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from reference.diagnosis import Signature, Step, trusted_signature
from reference.diagnosis.stored import signature_from_json, signature_to_json, tree_key
from reference.exercises import load_catalog
from reference.hidden import load_library
from reference.hidden.trusted import run_trusted
from reference.treefile import parse_compact

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"

FIGURE = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"


def test_a_signature_reads_back_equal_through_json_with_every_kind_of_value() -> None:
    signature = Signature(
        (
            Step("enter", "A", float("-inf"), float("inf"), 2),
            Step("leaf", "B", Fraction(1, 3), 5, 1, Fraction(7, 2)),
            Step("exit", "A", -3, 4.5, None, "not a value"),
            Step("leaf", "C"),
        ),
        decisions=frozenset({"a1", "a2"}),
        decision_style=True,
        failed=True,
    )
    document = json.loads(json.dumps(signature_to_json(signature)))
    assert signature_from_json(document) == signature


def test_every_library_signature_on_a_shipped_tree_reads_back_equal() -> None:
    exercise = load_catalog(EXERCISES).get("aima-fig5.2-alphabeta")
    tree = exercise.trees[0].tree
    for implementation in load_library(EXERCISES / "implementations"):
        if implementation.family != "alphabeta":
            continue
        signature = trusted_signature(run_trusted(implementation.source, exercise, tree))
        document = json.loads(json.dumps(signature_to_json(signature)))
        assert signature_from_json(document) == signature


def test_a_stored_step_that_is_no_step_is_refused() -> None:
    with pytest.raises(ValueError, match="not a step"):
        signature_from_json({"steps": [["jump", "A", None, None, None, None]]})


def test_a_tree_key_names_the_content_not_the_object() -> None:
    one, two = parse_compact(FIGURE), parse_compact(FIGURE)
    assert one is not two
    assert tree_key(one) == tree_key(two)
    assert tree_key(parse_compact(FIGURE.replace("12", "13"))) != tree_key(one)
    assert tree_key(parse_compact(FIGURE.replace("12", "12.0"))) != tree_key(one)
