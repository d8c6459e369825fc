"""The pages of exercises written to other courses' contracts in a real Chromium, on a wide
screen and a phone's: the exercise page, a graded CS188 agent's and a graded games-lab
file's feedback pass axe-core and do not scroll sideways; the instructor's preview says
what students write.
Screenshots go to ``artifacts/browser/contract-*.png``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from selenium.webdriver.common.by import By
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, Role, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.chromium import (
    WebDriverWait,
    axe_violations,
    chromium,
    screenshot,
    served,
    settled,
    sideways_overflow,
    sign_in,
)
from tests.grader.conftest import PASSWORD, UserFactory, analysed

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[2] / "worker" / "data"
SUBMISSIONS = {
    # page name: exercise, the student's file
    "cs188": ("cs188-alphabeta-one-ghost", "cs188_agents/wrong_alphabeta_generates_first.py"),
    "mit": ("mit6034-toy-alphabeta", "mit6034/wrong_uncounted_heuristic.py"),
}


def _source(file: str) -> str:
    source = (DATA / file).read_text()
    if file.startswith("cs188_agents/"):
        source = (DATA / "cs188_agents" / "_base.py").read_text() + "\n\n" + source
    return source


def _pages(database: Database, settings: Settings, course: Course, user: User) -> dict[str, str]:
    analysed(database, settings, course, *(slug for slug, _ in SUBMISSIONS.values()))
    paths = {}
    for name, (slug, file) in SUBMISSIONS.items():
        with database.session() as session:
            exercise = session.scalars(
                select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
            ).one()
            submission = submit(session, settings, user, exercise, "search.py", _source(file))
            run_ids = [run.id for run in submission.runs]
            paths[f"{name}-exercise"] = f"/exercises/{exercise.id}"
            paths[f"{name}-feedback"] = f"/submissions/{submission.id}"
        assert Queue(settings, database).send(GRADE_TASK, run_ids) == len(run_ids)
    return paths


@pytest.mark.parametrize("width", [1280, 390])
def test_the_pages_of_contract_exercises_pass_axe_and_fit_the_screen(
    app: Flask,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    width: int,
) -> None:
    student = make_user(Role.STUDENT, course)
    pages = _pages(database, settings, course, student)
    problems: dict[str, Any] = {}
    with served(app) as base, chromium(width) as driver:
        sign_in(driver, base, student.email, PASSWORD)
        for name, path in pages.items():
            driver.get(base + path)
            settled(driver)
            text = driver.page_source
            if name == "cs188-feedback":
                # T's sentence, in its details once it is opened.
                driver.execute_script(
                    "document.querySelector(arguments[0])"
                    ".dispatchEvent(new MouseEvent('click', {bubbles: true}));",
                    'figure[data-side="student"] g.node[data-node="T"]',
                )
                WebDriverWait(driver, 10).until(
                    lambda found: (
                        "T was generated, but the search prunes it at G"
                        in found.find_element(By.CSS_SELECTOR, ".node-details").text
                    )
                )
            if name == "mit-exercise":
                assert "MIT 6.034, games lab" in text
            found = {"axe": axe_violations(driver), "sideways": sideways_overflow(driver)}
            screenshot(driver, f"contract-{name}-{width}")
            if found["axe"] or found["sideways"]:
                problems[name] = found
    assert problems == {}, json.dumps(problems, indent=1)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_instructors_preview_of_a_cs188_exercise_says_what_students_write(
    app: Flask,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    width: int,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    analysed(database, settings, course, "cs188-alphabeta-one-ghost")
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "cs188-alphabeta-one-ghost"
            )
        ).one()
        path = f"/teach/exercises/{exercise.id}/versions/{exercise.current_version_id}"
    with served(app) as base, chromium(width) as driver:
        sign_in(driver, base, teacher.email, PASSWORD)
        driver.get(base + path)
        text = driver.page_source
        screenshot(driver, f"contract-preview-{width}")
    # (The preview's own access faults, its trace list scrolling without a keyboard, are
    # issue 34's, for every exercise.)
    assert "Berkeley CS188, multi-agent search" in text
    assert "AlphaBetaAgent(depth=2).getAction(gameState)" in text
