"""Every student page in a real Chromium, on a wide screen and on a phone's (390 px): axe-core
finds no WCAG 2.1 A or AA violation (contrast included), and nothing scrolls sideways.
Screenshots go to ``artifacts/browser/access-*.png``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, Role
from grader.models.submissions import SubmissionKind
from grader.services.queue import Queue
from grader.services.submissions import submit
from tests.chromium import axe_violations, chromium, screenshot, served, sideways_overflow, sign_in
from tests.grader.conftest import PASSWORD, UserFactory

pytestmark = pytest.mark.browser

SLUG = "aima-fig5.2-alphabeta"
LIBRARY = "exercises/implementations/alphabeta"
SEARCHES = {
    "wrong": "wrong_alpha_never_updated.py",
    "correct": "correct_fail_hard.py",
    "broken": None,  # a file that does not compile
    "check": "wrong_no_pruning.py",  # a check of a draft on the public trees
}


def _graded(database: Database, settings: Settings, course: Course, user: Any) -> dict[str, str]:
    """Each kind of submission of the student, graded: its page's path by kind."""
    from tests.chromium import ROOT

    paths = {}
    for kind, name in SEARCHES.items():
        source = (
            (ROOT / LIBRARY / name).read_text(encoding="utf-8")
            if name
            else "def max_value(state:\n    return 1\n"
        )
        with database.session() as session:
            exercise = session.scalars(
                select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
            ).one()
            as_kind = SubmissionKind.CHECK if kind == "check" else SubmissionKind.ATTEMPT
            submission = submit(
                session, settings, user, exercise, f"{kind}.py", source, kind=as_kind
            )
            run_ids = [run.id for run in submission.runs]
            paths[kind] = f"/submissions/{submission.id}"
            paths["exercise"] = f"/exercises/{exercise.id}"
        assert Queue(settings, database).send(run_ids) == len(run_ids)
    return paths


@pytest.mark.parametrize("width", [1280, 390])
def test_every_student_page_passes_axe_and_fits_the_screen(
    app: Flask,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    width: int,
) -> None:
    student = make_user(Role.STUDENT, course)
    pages = {"home": "/", **_graded(database, settings, course, student)}
    problems: dict[str, Any] = {}
    with served(app) as base, chromium(width) as driver:
        sign_in(driver, base, student.email, PASSWORD)
        for name, path in pages.items():
            driver.get(base + path)
            found = {
                "axe": axe_violations(driver),
                "sideways": sideways_overflow(driver),
            }
            screenshot(driver, f"access-{name}-{width}")
            if found["axe"] or found["sideways"]:
                problems[name] = found
    assert problems == {}, json.dumps(problems, indent=1)


def test_the_class_analytics_page_passes_axe(
    app: Flask, database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    paths = _graded(database, settings, course, make_user(Role.STUDENT, course))
    teacher = make_user(Role.INSTRUCTOR, course)
    exercise_id = paths["exercise"].rsplit("/", 1)[1]
    with served(app) as base, chromium(1280) as driver:
        sign_in(driver, base, teacher.email, PASSWORD)
        driver.get(f"{base}/teach/exercises/{exercise_id}/analytics")
        violations = axe_violations(driver)
        screenshot(driver, "access-analytics-1280")
    assert violations == [], json.dumps(violations, indent=1)
