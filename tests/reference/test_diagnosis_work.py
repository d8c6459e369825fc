"""A diagnosis costs at most its share of a grading: once its runs of the library have made
their game calls (``WORK_FLOOR``, or ``WORK_PER_STEP`` per step of the student's search),
it stops, names nothing and says so."""

from __future__ import annotations

import pytest

from reference.diagnosis import clear_signatures, diagnose, matching
from reference.diagnosis.findings import CUT
from tests.reference.test_diagnosis import as_student, by_name, exercise, library, trees_of


def test_a_diagnosis_out_of_work_names_nothing_and_says_so() -> None:
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    student = as_student(by_name("alphabeta/wrong_alpha_never_updated").source, found, trees)
    clear_signatures()  # nothing kept: every signature is a run
    cut = diagnose(student, trees, found, library(), work=100)
    assert cut is not None and cut.cut and not cut.misconceptions and cut.composed is None
    assert cut.describe() == CUT
    report = cut.report()
    assert report.cut is True and not report.exact and report.summary == CUT
    # With its default work the same search is named exactly.
    clear_signatures()
    whole = diagnose(student, trees, found, library())
    assert whole is not None and not whole.cut and whole.exact
    assert whole.report().cut is None


@pytest.mark.parametrize("slug", ["aima-fig5.2-alphabeta", "tictactoe-depth2-heuristic"])
def test_the_shipped_libraries_fit_the_floor_cold(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spent: list[int] = []
    spend = matching.Work.spend

    def counted(self: matching.Work, calls: int) -> None:
        spent.append(calls)
        spend(self, calls)

    monkeypatch.setattr(matching.Work, "spend", counted)
    found, trees = exercise(slug), trees_of(slug)
    for implementation in library():
        if not implementation.is_wrong_for(found):
            continue
        clear_signatures()
        spent.clear()
        student = as_student(implementation.source, found, trees)
        diagnosis = diagnose(student, trees, found, library())
        assert diagnosis is None or not diagnosis.cut, implementation.name
        assert sum(spent) <= matching.WORK_FLOOR, implementation.name
