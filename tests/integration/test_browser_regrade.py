"""A regrade people can trust, in a real Chromium against the real app, real Celery workers,
PostgreSQL and Redis: two students have graded attempts; the instructor uploads and
publishes a changed version (the same tree, scored with other weights), starts a regrade,
watches its progress (the slow lane's worker is started only then, so the page is seen
counting), reads the preview's summary, confirms; a student's exercise page then shows the
notice with the real old and new grades. Screenshots go to ``artifacts/browser/regrade-*``."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from grader.config import Settings
from grader.db import Database
from grader.models import Course, GradingRun, Membership, Role, User
from grader.services import grades
from grader.services.exercise_store import import_library
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from grader.web import create_app
from tests.chromium import WebDriverWait, axe_violations, chromium, screenshot, served, sign_in
from tests.integration.conftest import (
    ROOT,
    Worker,
    exercise_of,
    service_settings,
    wait_until_graded,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SLUG = "aima-fig5.2-alphabeta"
FIGURE = ROOT / "exercises" / SLUG
LIBRARY = ROOT / "exercises" / "implementations" / "alphabeta"
PASSWORD = "a regrade's password"
RESCORED = "scoring:\n  value: 60\n  decision: 20\n  nodes: 20\n"


@dataclass
class Site:
    base: str
    settings: Settings
    database: Database
    course_id: int
    exercise_id: int
    teacher: str
    students: list[tuple[str, int]]
    """(email, user id) of each student."""


def _person(database: Database, course_id: int, role: str, name: str) -> tuple[str, int]:
    email = f"{role}-{secrets.token_hex(4)}@example.edu"
    with database.session() as session:
        user = User(
            email=email,
            name=name,
            role=role,
            password_hash=generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000"),
        )
        session.add(user)
        session.flush()
        session.add(Membership(user_id=user.id, course_id=course_id, role=role))
        return email, user.id


@pytest.fixture
def site(
    pg_url: str, own_redis: str, tmp_path: Path, workers: Callable[..., Worker]
) -> Iterator[Site]:
    """A course of its own with an instructor and two students whose attempts a worker of
    the fast lane graded; the app served on loopback."""
    settings = service_settings(tmp_path, pg_url, own_redis)
    database = Database(pg_url)
    with database.session() as session:
        course = Course(title="Regrades", join_code=f"R{secrets.token_hex(4)}")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        course_id = course.id
        session.expunge(course)
    teacher, _ = _person(database, course_id, Role.INSTRUCTOR, "Rita Teacher")
    students = [
        _person(database, course_id, Role.STUDENT, name) for name in ("Ada Student", "Bob Student")
    ]
    exercise = exercise_of(database, course, SLUG)
    workers(settings, queues="grading", concurrency=1)
    # The analysis of an uploaded version (its reference traces: the preview and publish
    # wait for it) is a maintenance task.
    workers(settings, queues="maintenance", concurrency=1)
    run_ids = []
    for (_, user_id), name in zip(
        students, ("wrong_no_pruning.py", "wrong_alpha_never_updated.py"), strict=True
    ):
        with database.session() as session:
            user = session.get(User, user_id)
            assert user is not None
            made = submit(session, settings, user, exercise, name, (LIBRARY / name).read_text())
            run_ids.append(made.runs[0].id)
    Queue(settings, database).send(GRADE_TASK, run_ids)
    wait_until_graded(database, run_ids, timeout=120)
    with served(create_app(settings, database)) as base:
        yield Site(base, settings, database, course_id, exercise.id, teacher, students)
    database.engine.dispose()


def _changed_version(folder: Path) -> list[Path]:
    folder.mkdir()
    paths = []
    for path in sorted(FIGURE.iterdir()):
        text = path.read_text() + (RESCORED if path.name == "exercise.yaml" else "")
        (folder / path.name).write_text(text)
        paths.append(folder / path.name)
    return paths


def test_an_instructor_previews_and_confirms_a_regrade_and_a_student_is_told(
    site: Site, tmp_path: Path, workers: Callable[..., Worker]
) -> None:
    with chromium(1280, 1000) as driver:
        wait = WebDriverWait(driver, 120)
        sign_in(driver, site.base, site.teacher, PASSWORD)

        # A changed version, uploaded and published through the pages.
        driver.get(f"{site.base}/teach/courses/{site.course_id}/exercises/new?slug={SLUG}")
        files = _changed_version(tmp_path / "v2")
        driver.find_element(By.ID, "files").send_keys("\n".join(str(p) for p in files))
        driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        wait.until(
            expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "button.publish"))
        )
        driver.find_element(By.CSS_SELECTOR, "button.publish").click()
        wait.until(
            expected_conditions.text_to_be_present_in_element(
                (By.TAG_NAME, "main"), "Published version"
            )
        )

        # The regrade: its progress first (no slow-lane worker yet), then the summary.
        driver.get(f"{site.base}/teach/exercises/{site.exercise_id}/class-results")
        driver.find_element(By.XPATH, "//button[normalize-space()='Regrade…']").click()
        progress = wait.until(
            expected_conditions.presence_of_element_located((By.ID, "regrade-progress"))
        )
        assert "0 of 2 graded" in " ".join(progress.text.split())
        screenshot(driver, "regrade-progress")
        workers(site.settings, queues="grading-slow", concurrency=1)
        summary = wait.until(
            expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "table.regrade"))
        )
        assert driver.find_elements(By.ID, "regrade-progress") == []
        rows = summary.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert len(rows) == 2
        screenshot(driver, "regrade-summary")
        assert axe_violations(driver) == []

        expected = _expected_changes(site)
        assert expected, "the changed version changed nobody's grade"
        for user_id, (before, after) in expected.items():
            name = "Ada Student" if user_id == site.students[0][1] else "Bob Student"
            row = next(row for row in rows if name in row.text)
            assert f"{before:.1f}" in row.find_element(By.CSS_SELECTOR, "td.before").text
            assert f"{after:.1f}" in row.find_element(By.CSS_SELECTOR, "td.after").text

        driver.find_element(By.XPATH, "//button[starts-with(normalize-space(), 'Confirm')]").click()
        wait.until(
            expected_conditions.text_to_be_present_in_element(
                (By.TAG_NAME, "main"), "Regrade confirmed"
            )
        )
        screenshot(driver, "regrade-confirmed")

        # A student whose grade changed reads the notice with the real numbers.
        user_id, (before, after) = next(iter(expected.items()))
        email = next(email for email, uid in site.students if uid == user_id)
        driver.get("about:blank")  # its scripts stopped first (see test_browser_deadlines)
        driver.delete_all_cookies()
        sign_in(driver, site.base, email, PASSWORD)
        assert "1 new notice" in driver.find_element(By.TAG_NAME, "main").text
        driver.get(f"{site.base}/exercises/{site.exercise_id}")
        notice = driver.find_element(By.CSS_SELECTOR, ".notices li.notice-regrade")
        assert "Regraded on" in notice.text
        assert (
            f"after the exercise changed: {before:.1f} → {after:.1f} (out of 100)." in notice.text
        )
        screenshot(driver, "regrade-student-notice")
        assert axe_violations(driver) == []


def _expected_changes(site: Site) -> dict[int, tuple[float, float]]:
    """Each student's grade now and with the open regrade's runs counted, where they
    differ (by grades.student_grades, as the pages)."""
    from grader.models import Exercise, Regrade

    with site.database.session() as session:
        exercise = session.get(Exercise, site.exercise_id)
        assert exercise is not None
        regrade_id = session.scalars(
            select(Regrade.id).where(Regrade.exercise_id == exercise.id)
        ).one()
        assert session.scalars(
            select(GradingRun.state).where(GradingRun.regrade_id == regrade_id)
        ).all() == ["graded", "graded"]
        users = [user_id for _, user_id in site.students]
        now = grades.student_grades(session, exercise, users)
        then = grades.student_grades(session, exercise, users, regrade_id=regrade_id)
        found = {}
        for user_id in users:
            before, after = now[user_id].score, then[user_id].score
            assert before is not None and after is not None
            if abs(before - after) > 1e-9:
                found[user_id] = (before, after)
        return found


def test_an_instructor_orders_the_course_and_a_student_sees_it(site: Site) -> None:
    """The course's exercises page by keyboard-free clicks: a section made, an exercise put
    in it and archived; axe-core finds nothing on the page; the student's list follows."""
    with chromium(1280, 1000) as driver:
        wait = WebDriverWait(driver, 30)
        sign_in(driver, site.base, site.teacher, PASSWORD)
        driver.get(f"{site.base}/teach/courses/{site.course_id}/exercises")
        driver.find_element(By.ID, "new-section-title").send_keys("Week 1")
        driver.find_element(By.XPATH, "//button[normalize-space()='Add section']").click()
        wait.until(
            expected_conditions.text_to_be_present_in_element(
                (By.TAG_NAME, "main"), "Made section “Week 1”."
            )
        )
        select = driver.find_element(By.ID, f"exercise-section-{site.exercise_id}")
        select.find_element(By.XPATH, "option[normalize-space()='Week 1']").click()
        select.find_element(By.XPATH, "following-sibling::button").click()
        wait.until(
            expected_conditions.text_to_be_present_in_element(
                (By.TAG_NAME, "main"), "is now in “Week 1”"
            )
        )
        screenshot(driver, "course-exercises")
        assert axe_violations(driver) == []

        driver.get("about:blank")  # its scripts stopped first (see test_browser_deadlines)

        driver.delete_all_cookies()
        sign_in(driver, site.base, site.students[0][0], PASSWORD)
        headings = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "h3.section-title")]
        assert headings[:2] == ["Week 1", "Other exercises"]
        first = driver.find_element(By.CSS_SELECTOR, "table.exercises a")
        assert first.get_attribute("href") == f"{site.base}/exercises/{site.exercise_id}"
        screenshot(driver, "course-student-list")
        assert axe_violations(driver) == []
