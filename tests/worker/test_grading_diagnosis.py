"""A graded search that did not pass carries the diagnosis of its misconception; a correct
one carries none, and a failed diagnosis never fails the grading."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from reference.exercises import load_catalog
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER, load_library
from reference.report import Report
from worker import diagnosis as diagnosis_module
from worker.grading import grade

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
LIBRARY = {implementation.name: implementation for implementation in load_library(
    EXERCISES / LIBRARY_FOLDER
)}  # fmt: skip
SLUG = "aima-fig5.2-alphabeta"


def graded(name: str, slug: str = SLUG) -> Report:
    return grade(
        CATALOG.get(slug),
        LIBRARY[name].source,
        f"{name.split('/')[1]}.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
    )


def test_a_wrong_search_is_told_its_misconception_with_hidden_trees_counted() -> None:
    name = "alphabeta/wrong_alpha_never_updated"
    report = graded(name)
    assert report.verdict != "passed"
    diagnosis = report.diagnosis
    assert diagnosis is not None and diagnosis.exact
    first = diagnosis.misconceptions[0]
    misconception = LIBRARY[name].misconception
    assert misconception is not None
    assert name in first.implementations
    assert (first.name, first.explanation, first.pseudocode, first.hint) == (
        misconception.name,
        misconception.explanation,
        misconception.pseudocode,
        misconception.hint,
    )
    assert misconception.name in diagnosis.summary
    hidden = [case.name for case in report.cases if case.hidden]
    public = [case.name for case in report.cases if not case.hidden]
    assert hidden and diagnosis.trees == len(report.cases)
    assert first.hidden_trees == first.hidden_matched == len(hidden)
    assert [match.tree for match in first.evidence] == public
    assert first.trees_matched == len(report.cases)
    # No hidden tree is named anywhere in the diagnosis.
    document = json.dumps(report.to_json()["diagnosis"])
    assert not any(f'"{tree}"' in document for tree in hidden)


def test_a_correct_search_gets_no_diagnosis() -> None:
    report = graded("alphabeta/correct_fail_hard")
    assert report.verdict == "passed"
    assert report.diagnosis is None
    assert "diagnosis" not in report.to_json()


def test_a_search_that_does_not_compile_gets_none() -> None:
    report = grade(
        CATALOG.get(SLUG),
        "def max_value(:\n",
        "broken.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
    )
    assert report.verdict == "compile_error"
    assert report.diagnosis is None


def test_a_failed_diagnosis_leaves_the_report_without_one(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the library broke")

    monkeypatch.setattr(diagnosis_module, "diagnose", broken)
    with caplog.at_level(logging.ERROR, logger="worker.diagnosis"):
        report = graded("alphabeta/wrong_alpha_never_updated")
    assert report.verdict == "failed"
    assert report.diagnosis is None
    assert "the diagnosis failed" in caplog.text


def test_grading_without_the_diagnosis_leaves_it_out() -> None:
    report = grade(
        CATALOG.get(SLUG),
        LIBRARY["alphabeta/wrong_alpha_never_updated"].source,
        "wrong.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        diagnose=False,
    )
    assert report.verdict == "failed" and report.diagnosis is None
