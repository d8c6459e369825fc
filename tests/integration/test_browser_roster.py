"""The roster in a real Chromium against the real app, a real Celery worker, PostgreSQL and
Redis: a student submits a wrong search through the exercise page; their instructor opens
the course's roster, the exercise's students and the student's submission (their code and
feedback), and sets their grade with a comment; the student then reads the comment on
their pages, and the LMS their submission came through (a loopback receiver) is called
back, signed, with a ``grade.changed`` event carrying the new grade. Screenshots go to
``artifacts/browser/roster-*.png``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from werkzeug.security import generate_password_hash

from grader.db import Database
from grader.models import Course, LmsSubmission, Membership, Role, User
from grader.web import create_app
from tests.chromium import WebDriverWait, chromium, screenshot, served, sign_in
from tests.grader.conftest import TEST_PASSWORD_HASH
from tests.grader.lms.test_callbacks import Receiver, make_integration, new_secret
from tests.integration.conftest import ROOT, SharedWorkers, exercise_of

pytestmark = [pytest.mark.integration, pytest.mark.browser]

LIBRARY = ROOT / "exercises" / "implementations" / "alphabeta"
PASSWORD = "a roster's password"


def _account(database: Database, course: Course, name: str, role: str) -> str:
    email = f"{name.split()[0].lower()}-{time.monotonic_ns()}@example.edu"
    with database.session() as session:
        user = User(
            email=email,
            name=name,
            role=role,
            password_hash=generate_password_hash(PASSWORD, method=TEST_PASSWORD_HASH),
        )
        session.add(user)
        session.flush()
        member = Role.STUDENT if role == Role.STUDENT else Role.INSTRUCTOR
        session.add(Membership(user_id=user.id, course_id=course.id, role=member))
    return email


def test_an_instructor_reads_a_students_work_and_sets_their_grade(
    shared_workers: SharedWorkers, pg_course: Course, tmp_path: Path
) -> None:
    # The session's workers send callbacks to loopback (SERVICE_ENV), where the receiver is.
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    receiver = Receiver(new_secret()).start()
    integration_id = make_integration(database, pg_course, receiver.secret)
    student = _account(database, pg_course, "Rosa Roster", Role.STUDENT)
    teacher = _account(database, pg_course, "Ian Instructor", Role.INSTRUCTOR)
    exercise = exercise_of(database, pg_course, "aima-fig5.2-alphabeta")
    # Seconds for the grading and the version's drawings: its analysis may queue behind the
    # other exercises' of the course on a busy machine.
    wait = 240
    try:
        with served(create_app(settings, database)) as base, chromium(1280, 900) as driver:
            # The student submits a search that never prunes, through the page.
            sign_in(driver, base, student, PASSWORD)
            driver.get(f"{base}/exercises/{exercise.id}")
            driver.find_element(By.ID, "upload").send_keys(str(LIBRARY / "wrong_no_pruning.py"))
            driver.find_element(By.CSS_SELECTOR, "form[enctype] button[type=submit]").click()
            WebDriverWait(driver, wait).until(
                expected_conditions.presence_of_element_located((By.ID, "feedback"))
            )
            # Graded (the page updates itself), not only waiting for its worker.
            WebDriverWait(driver, wait).until(
                expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "body"), "Graded")
            )
            submission_url = driver.current_url
            driver.get("about:blank")  # its scripts stopped first (see test_browser_deadlines)
            driver.delete_all_cookies()
            # As if it had come through the LMS, with a callback URL (graded already: the
            # LMS hears of it again only when its grade changes).
            with database.session() as session:
                session.add(
                    LmsSubmission(
                        submission_id=int(submission_url.rsplit("/", 1)[-1]),
                        integration_id=integration_id,
                        context_id="course-19",
                        lms_user_id="lms-rosa",
                        callback_url=receiver.url(),
                    )
                )

            # The instructor: roster, the exercise's students, the student's submission.
            sign_in(driver, base, teacher, PASSWORD)
            driver.get(f"{base}/teach/")
            driver.find_element(By.LINK_TEXT, "Roster").click()
            roster = driver.find_element(By.CSS_SELECTOR, "table.roster").text
            assert "Rosa Roster" in roster and student in roster
            screenshot(driver, "roster-course")
            link = driver.find_element(By.PARTIAL_LINK_TEXT, f"{exercise.title}: students")
            link.click()
            row = driver.find_element(By.XPATH, "//tr[td[contains(., 'Rosa Roster')]]")
            assert "failed" in row.text.lower()
            screenshot(driver, "roster-students")
            row.find_element(By.LINK_TEXT, "open").click()
            assert driver.current_url.endswith(submission_url.rsplit("/", 1)[-1])
            assert "/teach/submissions/" in driver.current_url
            code = driver.find_element(By.ID, "code").text
            assert "Rosa Roster's code" in code and "def max_value" in code
            WebDriverWait(driver, wait).until(
                expected_conditions.presence_of_element_located(
                    (By.CSS_SELECTOR, '#feedback figure[data-side="student"] g[data-node="C2"]')
                )
            )
            node = driver.find_element(
                By.CSS_SELECTOR, '#feedback figure[data-side="student"] g[data-node="C2"]'
            )
            assert "verdict-extra" in (node.get_attribute("class") or "")
            assert "Submit again" not in driver.find_element(By.TAG_NAME, "main").text

            # A grade with no comment is refused; with one, it is set.
            score = driver.find_element(By.ID, "score")
            score.clear()
            score.send_keys("70")
            driver.execute_script("document.getElementById('comment').removeAttribute('required')")
            driver.find_element(By.CSS_SELECTOR, "form.override-form button").click()
            WebDriverWait(driver, 10).until(
                expected_conditions.text_to_be_present_in_element(
                    (By.ID, "grade"), "Not changed: write a comment"
                )
            )
            score = driver.find_element(By.ID, "score")
            score.clear()
            score.send_keys("70")
            driver.find_element(By.ID, "comment").send_keys("Your pruning idea was right on paper.")
            driver.find_element(By.CSS_SELECTOR, "form.override-form button").click()
            WebDriverWait(driver, 10).until(
                expected_conditions.text_to_be_present_in_element((By.ID, "grade"), "Set to 70")
            )
            panel = driver.find_element(By.ID, "grade").text
            assert "Set to 70 / 100" in panel and "Your pruning idea was right" in panel
            screenshot(driver, "roster-submission")
            driver.get("about:blank")  # its scripts stopped first (see test_browser_deadlines)
            driver.delete_all_cookies()

            # The student reads it.
            sign_in(driver, base, student, PASSWORD)
            driver.get(submission_url)
            said = driver.find_element(By.ID, "override").text
            assert said == (
                "Your instructor set your grade to 70 / 100: Your pruning idea was right on paper."
            )
            driver.get(f"{base}/exercises/{exercise.id}")
            assert "Your pruning idea" in driver.find_element(By.ID, "override").text
            screenshot(driver, "roster-student-exercise")

        # The LMS got the override, signed, once.
        deadline = time.monotonic() + 60
        while not receiver.got and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)  # a duplicate, if any, would have arrived by now
        (got,) = receiver.got
        assert got.verified, got.problem
        assert got.payload["type"] == "grade.changed"
        data = got.payload["data"]
        assert (data["reason"], data["user_id"], data["context_id"]) == (
            "override",
            "lms-rosa",
            "course-19",
        )
        assert data["grade"]["score"] == 70.0 and data["grade"]["overridden"] is True
        assert data["grade"]["comment"] == "Your pruning idea was right on paper."
    finally:
        receiver.stop()
        database.engine.dispose()
