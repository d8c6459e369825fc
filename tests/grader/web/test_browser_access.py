"""Every student page in a real Chromium, on a wide screen and on a phone's (390 px): axe-core
finds no WCAG 2.1 A or AA violation (contrast included), and nothing scrolls sideways.
Screenshots go to ``artifacts/browser/access-*.png``."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, LatePolicy, Role, User, utcnow
from grader.models.submissions import SubmissionKind
from grader.services import overrides
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
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
        assert Queue(settings, database).send(GRADE_TASK, run_ids) == len(run_ids)
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


def test_the_class_results_page_passes_axe(
    app: Flask, database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    paths = _graded(database, settings, course, make_user(Role.STUDENT, course))
    teacher = make_user(Role.INSTRUCTOR, course)
    exercise_id = paths["exercise"].rsplit("/", 1)[1]
    with served(app) as base, chromium(1280) as driver:
        sign_in(driver, base, teacher.email, PASSWORD)
        driver.get(f"{base}/teach/exercises/{exercise_id}/class-results")
        violations = axe_violations(driver)
        screenshot(driver, "access-class-results-1280")
    assert violations == [], json.dumps(violations, indent=1)


TWO_MISTAKES = "tests/reference/sources/alphabeta_two_mistakes.py"
ADDED = {
    "stem": "min_never_prunes",
    "name": "MIN nodes never prune",
    "explanation": "MIN-VALUE never returns early, so it searches every reply.",
    "pseudocode": "Figure 5.7, MIN-VALUE: if v ≤ α then return v",
    "hint": "What should MIN-VALUE compare v with?",
    "source": (
        "def max_value(game, state, alpha, beta):\n"
        "    if game.terminal_test(state):\n"
        "        return game.utility(state, 'MAX')\n"
        "    v = -float('inf')\n"
        "    for action in game.actions(state):\n"
        "        v = max(v, min_value(game, game.result(state, action), alpha, beta))\n"
        "        if v >= beta:\n"
        "            return v\n"
        "        alpha = max(alpha, v)\n"
        "    return v\n\n\n"
        "def min_value(game, state, alpha, beta):\n"
        "    if game.terminal_test(state):\n"
        "        return game.utility(state, 'MAX')\n"
        "    v = float('inf')\n"
        "    for action in game.actions(state):\n"
        "        v = min(v, max_value(game, game.result(state, action), alpha, beta))\n"
        "        beta = min(beta, v)\n"
        "    return v\n"
    ),
}


@pytest.mark.parametrize("width", [1280, 390])
def test_the_pages_of_misconceptions_pass_axe_and_fit_the_screen(
    app: Flask,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    width: int,
) -> None:
    from tests.chromium import ROOT
    from tests.grader.conftest import csrf_token, login

    student = make_user(Role.STUDENT, course)
    paths = _graded(database, settings, course, student)
    exercise_id = paths["exercise"].rsplit("/", 1)[1]
    with database.session() as session:
        exercise = session.get(Exercise, int(exercise_id))
        assert exercise is not None
        two = submit(
            session, settings, student, exercise, "two.py",
            (ROOT / TWO_MISTAKES).read_text(encoding="utf-8"),
        )  # fmt: skip
        run_ids, two_path = [run.id for run in two.runs], f"/submissions/{two.id}"
    Queue(settings, database).send(GRADE_TASK, run_ids)
    teacher = make_user(Role.INSTRUCTOR, course)
    client = app.test_client()
    login(client, teacher)
    added = client.post(
        f"/teach/exercises/{exercise_id}/library/new",
        data={"csrf_token": csrf_token(client), **ADDED},
        content_type="multipart/form-data",
    )
    assert added.status_code == 302, added.get_data(as_text=True)
    teach = f"/teach/exercises/{exercise_id}"
    pages = {
        "class-results": f"{teach}/class-results",
        "misconception": f"{teach}/misconceptions/alphabeta/wrong_alpha_never_updated",
        "exercise-mistakes": f"{teach}/",
        "add-mistake": f"{teach}/library/new",
        "added-mistake": added.headers["Location"],
    }
    problems: dict[str, object] = {}
    with served(app) as base, chromium(width) as driver:
        sign_in(driver, base, student.email, PASSWORD)
        for name, path in (("wrong", paths["wrong"]), ("two-mistakes", two_path)):
            driver.get(base + path)
            found = (axe_violations(driver), sideways_overflow(driver))
            screenshot(driver, f"misconception-{name}-student-{width}")
            if found != ([], {}):
                problems[f"student {name}"] = found
        assert "two known mistakes" in driver.page_source
        driver.delete_all_cookies()
        sign_in(driver, base, teacher.email, PASSWORD)
        for name, path in pages.items():
            driver.get(base + path)
            found = (axe_violations(driver), sideways_overflow(driver))
            screenshot(driver, f"misconception-{name}-instructor-{width}")
            if found != ([], {}):
                problems[name] = found
    assert problems == {}, json.dumps(problems, indent=1, default=str)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_pages_of_running_a_course_pass_axe_and_fit_the_screen(
    app: Flask,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    width: int,
) -> None:
    """The instructor's pages (roster, an exercise's students, a submission read as the
    instructor, the audit log, the course's exercises, the dates and extensions form) and
    the student's, with a late attempt, an extension-free penalty and an override."""
    student = make_user(Role.STUDENT, course)
    teacher = make_user(Role.INSTRUCTOR, course)
    paths = _graded(database, settings, course, student)
    exercise_id = int(paths["exercise"].rsplit("/", 1)[1])
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        exercise.due_at = utcnow() - timedelta(days=2)
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
        exercise.late_penalty_cap = 50.0
        found = session.get(User, student.id)
        actor = session.get(User, teacher.id)
        assert found is not None and actor is not None
        overrides.set_override(session, actor, exercise, found, 50.0, "Half marks: see me.")
    submission_id = paths["wrong"].rsplit("/", 1)[1]
    instructor_pages = {
        "roster": f"/teach/courses/{course.id}/roster",
        "students": f"/teach/exercises/{exercise_id}/students",
        "review": f"/teach/submissions/{submission_id}",
        "audit": f"/teach/courses/{course.id}/audit",
        "course-exercises": f"/teach/courses/{course.id}/exercises",
        "exercise-dates": f"/teach/exercises/{exercise_id}/",
    }
    student_pages = {"home": "/", "exercise": paths["exercise"], "wrong": paths["wrong"]}
    problems: dict[str, Any] = {}
    with served(app) as base:
        for person, pages in ((teacher, instructor_pages), (student, student_pages)):
            with chromium(width) as driver:
                sign_in(driver, base, person.email, PASSWORD)
                for name, path in pages.items():
                    driver.get(base + path)
                    found = {
                        "axe": axe_violations(driver),
                        "sideways": sideways_overflow(driver),
                    }
                    screenshot(driver, f"course-{name}-{person.role}-{width}")
                    if found["axe"] or found["sideways"]:
                        problems[f"{person.role} {name}"] = found
    assert problems == {}, json.dumps(problems, indent=1)
