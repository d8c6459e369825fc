"""Deadlines in a real Chromium against the real app, a real Celery worker, PostgreSQL and
Redis. An instructor in Paris sets a due date in the past with a penalty policy (entered in
local time, stored in UTC); a student submits late and sees the penalty, as does the
instructor (on the submission and in the grade book's CSV); an extension lifts it; a refusing
policy refuses the next attempt in words.
Screenshots go to ``artifacts/browser/deadlines-*.png``."""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from grader.db import Database
from grader.models import Course, Exercise, Extension, Membership, Role, User
from grader.models.base import aware
from grader.services.exercise_store import import_library
from grader.web import create_app
from tests.chromium import WebDriverWait, axe_violations, chromium, screenshot, served, sign_in
from tests.grader.conftest import TEST_PASSWORD_HASH
from tests.integration.conftest import ROOT, SharedWorkers, exercise_of

pytestmark = [pytest.mark.integration, pytest.mark.browser]

LIBRARY = ROOT / "exercises" / "implementations" / "alphabeta"
PASSWORD = "a deadline's password"
PARIS = ZoneInfo("Europe/Paris")


@dataclass(frozen=True)
class Site:
    base: str
    database: Database
    exercise_id: int
    instructor: str
    student: str
    student_name: str


@pytest.fixture
def site(shared_workers: SharedWorkers, tmp_path: Path) -> Iterator[Site]:
    """A course of its own (its due dates and refusals must not reach other tests'
    courses), an instructor, a student, the session's workers, the app served on
    loopback."""
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    with database.session() as session:
        course = Course(title="Deadlines", join_code=f"D{secrets.token_hex(4)}")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        session.expunge(course)
    emails = {role: f"{role}-{tmp_path.name}@example.edu" for role in ("instructor", "student")}
    with database.session() as session:
        for role, email in emails.items():
            name = "Ada Instructor" if role == "instructor" else f"Late Student {tmp_path.name}"
            user = User(
                email=email,
                name=name,
                role=Role.INSTRUCTOR if role == "instructor" else Role.STUDENT,
                password_hash=generate_password_hash(PASSWORD, method=TEST_PASSWORD_HASH),
            )
            session.add(user)
            session.flush()
            session.add(Membership(user_id=user.id, course_id=course.id, role=user.role))
    exercise = exercise_of(database, course, "aima-fig5.2-alphabeta")
    with served(create_app(settings, database)) as base:
        yield Site(
            base,
            database,
            exercise.id,
            emails["instructor"],
            emails["student"],
            f"Late Student {tmp_path.name}",
        )
    database.engine.dispose()


def _as(driver: WebDriver, site: Site, email: str) -> None:
    # Off the page first: a submission page's scripts (its status poller, the tree
    # documents) would otherwise meet the signed-out session and reload it as the sign-in
    # page with a next= of its own, racing the sign-in below.
    driver.get("about:blank")
    driver.delete_all_cookies()
    sign_in(driver, site.base, email, PASSWORD)


def _local_input(driver: WebDriver, element_id: str, moment: datetime) -> None:
    """Type a wall-clock time in Paris into a datetime-local input (set as its value: the
    picker's keyboard entry depends on the locale)."""
    value = moment.astimezone(PARIS).strftime("%Y-%m-%dT%H:%M")
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].value = arguments[1];", element, value)


def _stored(site: Site) -> Exercise:
    with site.database.session() as session:
        found = session.get(Exercise, site.exercise_id)
        assert found is not None
        session.expunge(found)
        return found


def _wait_text(driver: WebDriver, selector: str, text: str, timeout: float = 90) -> str:
    WebDriverWait(driver, timeout).until(
        expected_conditions.text_to_be_present_in_element((By.CSS_SELECTOR, selector), text)
    )
    return driver.find_element(By.CSS_SELECTOR, selector).text


def _set_dates(driver: WebDriver, site: Site, due: datetime, policy: str) -> None:
    driver.get(f"{site.base}/teach/exercises/{site.exercise_id}/")
    _local_input(driver, "due_at", due)
    Select(driver.find_element(By.ID, "late_policy")).select_by_value(policy)
    for name, value in (("penalty_per_day", "10"), ("penalty_cap", "50")):
        field = driver.find_element(By.ID, name)
        field.clear()
        field.send_keys(value)
    driver.find_element(By.CSS_SELECTOR, "#deadlines form button[type=submit]").click()
    _wait_text(driver, ".flash", "Saved the dates", 10)


def _csv_rows(driver: WebDriver, site: Site) -> list[dict[str, str]]:
    """The grade book as the signed-in instructor downloads it."""
    cookies = {cookie["name"]: cookie["value"] for cookie in driver.get_cookies()}
    response = requests.get(
        f"{site.base}/teach/exercises/{site.exercise_id}/grades.csv", cookies=cookies, timeout=10
    )
    assert response.status_code == 200, response.text[:300]
    return list(csv.DictReader(io.StringIO(response.text)))


def test_a_late_submission_is_penalised_lifted_by_an_extension_then_refused(
    site: Site,
) -> None:
    with chromium(1280, 1000) as driver:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Paris"})

        # The instructor, in Paris, sets a due date two hours ago with a penalty.
        _as(driver, site, site.instructor)
        due = (datetime.now(UTC) - timedelta(hours=2)).replace(second=0, microsecond=0)
        _set_dates(driver, site, due, "penalty")
        stored = _stored(site)
        assert stored.due_at is not None and aware(stored.due_at) == due  # Paris -> UTC
        assert (stored.late_policy, stored.due_origin) == ("penalty", "instructor")
        shown = driver.find_element(By.CSS_SELECTOR, "#deadlines time[data-local]")
        assert "UTC" in (shown.get_attribute("title") or "") and "UTC" not in shown.text
        field = driver.find_element(By.ID, "due_at").get_attribute("value")
        assert field == due.astimezone(PARIS).strftime("%Y-%m-%dT%H:%M")  # back in Paris time
        screenshot(driver, "deadlines-instructor-form")
        assert axe_violations(driver) == []

        # The student submits late and sees the penalty.
        _as(driver, site, site.student)
        driver.get(f"{site.base}/exercises/{site.exercise_id}")
        dates = driver.find_element(By.CSS_SELECTOR, "section.due").text
        assert "Was due" in dates and "2 hours ago" in dates
        assert "Late submissions lose 10 % per day, at most 50 %." in dates
        driver.find_element(By.ID, "upload").send_keys(str(LIBRARY / "correct_fail_hard.py"))
        driver.find_element(By.CSS_SELECTOR, "form[enctype] button[type=submit]").click()
        _wait_text(driver, "#live", "Graded")
        submission_url = driver.current_url
        late = driver.find_element(By.CSS_SELECTOR, ".late-line").text
        assert "Submitted late" in late and "100 → 90 after 1 day late, \N{MINUS SIGN}10 %" in late
        attempts = driver.find_element(By.CSS_SELECTOR, "table.attempts").text
        assert "100 → 90" in attempts
        screenshot(driver, "deadlines-student-late")
        driver.get(f"{site.base}/")
        row_due = f"//a[@href='/exercises/{site.exercise_id}']/ancestor::tr/td[@class='due']"
        assert "hours ago" in driver.find_element(By.XPATH, row_due).text
        assert axe_violations(driver) == []
        screenshot(driver, "deadlines-student-home")
        driver.get(submission_url)

        # The instructor sees it too: on the submission and in the grade book.
        _as(driver, site, site.instructor)
        driver.get(submission_url)
        assert (
            "100 → 90 after 1 day late" in driver.find_element(By.CSS_SELECTOR, ".late-line").text
        )
        (row,) = [row for row in _csv_rows(driver, site) if row["email"] == site.student]
        assert (row["grade"], row["latest score"], row["max score"]) == ("90", "90", "100")
        assert (row["late"], row["days late"], row["penalty %"]) == ("yes", "1", "10")

        # An extension for the student lifts the penalty.
        driver.get(f"{site.base}/teach/exercises/{site.exercise_id}/")
        Select(driver.find_element(By.ID, "extension-student")).select_by_visible_text(
            f"{site.student_name} ({site.student})"
        )
        extension_field = driver.find_element(By.ID, "extension-due_at")
        value = (datetime.now(UTC) + timedelta(days=1)).astimezone(PARIS)
        driver.execute_script(
            "arguments[0].value = arguments[1];", extension_field, value.strftime("%Y-%m-%dT%H:%M")
        )
        driver.find_element(By.ID, "extension-reason").send_keys("ill")
        driver.find_element(
            By.CSS_SELECTOR, "#deadlines form[action$='/extensions'] button[type=submit]"
        ).click()
        _wait_text(driver, ".flash", "has an extension", 10)
        assert site.student_name in driver.find_element(By.CSS_SELECTOR, "table.extensions").text
        screenshot(driver, "deadlines-instructor-extension")
        (row,) = [row for row in _csv_rows(driver, site) if row["email"] == site.student]
        assert (row["grade"], row["late"], row["penalty %"]) == ("100", "no", "0")
        assert row["extension due (UTC)"]
        _as(driver, site, site.student)
        driver.get(submission_url)
        assert not driver.find_elements(By.CSS_SELECTOR, ".late-line")
        driver.get(f"{site.base}/exercises/{site.exercise_id}")
        assert "Your extension: due" in driver.find_element(By.CSS_SELECTOR, "section.due").text
        screenshot(driver, "deadlines-student-extension")

        # The extension removed and late submissions refused: the next attempt is refused.
        _as(driver, site, site.instructor)
        driver.get(f"{site.base}/teach/exercises/{site.exercise_id}/")
        driver.find_element(By.CSS_SELECTOR, "table.extensions button[type=submit]").click()
        _wait_text(driver, ".flash", "Removed the extension", 10)
        with site.database.session() as session:
            assert session.scalars(select(Extension)).all() == []
        _set_dates(driver, site, due, "refuse")
        _as(driver, site, site.student)
        driver.get(f"{site.base}/exercises/{site.exercise_id}")
        refused = driver.find_element(By.ID, "submit-refused").text
        assert "Closed: no late submissions" in refused
        button = driver.find_element(By.CSS_SELECTOR, "form[enctype] button[type=submit]")
        assert button.get_attribute("disabled") is not None
        # Posted anyway (a page left open from before): refused in words.
        driver.execute_script("arguments[0].disabled = false;", button)
        driver.find_element(By.ID, "upload").send_keys(str(LIBRARY / "correct_fail_hard.py"))
        button.click()
        message = _wait_text(driver, ".refusal", "not accepted", 10)
        assert "takes no late submissions" in message
        screenshot(driver, "deadlines-student-refused")
