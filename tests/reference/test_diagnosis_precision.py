"""The diagnosis can be trusted, measured on the labelled set of wrong searches
(``tests/reference/diagnosis_set``): an exact diagnosis is never wrong; a nearest mistake
offered for a search that makes none of the library's is misleading at most 1 time in 10,
and offered for one that makes a library mistake, is that one at least 9 times in 10.
``bench/diagnosis_precision.py`` prints the same figures."""

from __future__ import annotations

from functools import cache

import pytest

from reference.diagnosis import diagnose
from reference.diagnosis.findings import NONE_FITS
from tests.reference.diagnosis_set import cases, library, signatures
from tests.reference.diagnosis_set.precision import Precision, measure, told


@cache
def measured() -> Precision:
    return measure()


def test_an_exact_diagnosis_is_never_wrong() -> None:
    found = measured()
    assert found.exact, "no exact diagnosis at all: the measure would say nothing"
    wrong = [(item.case.name, item.named) for item in found.exact if not item.right]
    assert not wrong


def test_a_nearest_offered_for_a_search_the_library_lacks_rarely_misleads() -> None:
    offered = measured().nearest_for_none
    misleading = [(item.case.name, item.named) for item in offered if not item.right]
    assert len(misleading) * 10 <= len(offered), misleading


def test_a_nearest_offered_for_a_known_mistake_is_that_mistake() -> None:
    offered = measured().nearest_for_known
    wrong = [(item.case.name, item.named) for item in offered if not item.right]
    assert len(wrong) * 10 <= len(offered), wrong


def test_almost_every_known_mistake_is_found_whatever_its_style() -> None:
    found = measured()
    assert found.known >= 15
    assert found.known_found * 10 >= found.known * 9, found.lines()


SUGGESTED_BEFORE = (
    # Told "MAX's v starts at 0 (expectimax)" before.
    "expectimax/probabilities_cached",
    "expectimax/min_after_every_roll",
    "expectimax/global_last_mover",
    "expectimax/most_likely_first",
    # Told "pruning by the other rule" before.
    "alphabeta/global_ply_counter",
    "alphabeta/child_window_from_v",
    "depth-limited/depth_spent_at_max_only",
    # Told "v starts at 0" before, where right to left is its relative.
    "minimax/min_right_to_left",
)


@pytest.mark.parametrize("name", SUGGESTED_BEFORE)
def test_a_search_once_told_an_unrelated_mistake_is_told_none_fits_or_its_relative(
    name: str,
) -> None:
    case = next(case for case in cases() if case.name == name)
    assert case.matches is None
    exercise, trees, student = signatures(case)
    diagnosis = diagnose(student, trees, exercise, library())
    result = told(case, diagnosis)
    assert result.kind in ("none", "nearest"), result
    assert result.right, result
    if result.kind == "none":
        assert diagnosis is not None and diagnosis.describe() == NONE_FITS
