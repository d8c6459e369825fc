"""Every kind of page, as each role, in a real Chromium against the real app (PostgreSQL,
Redis, a Celery worker): the Content-Security-Policy header is there and the browser
reports no violation of it, neither in its console ("Refused to ...") nor to our
``/csp-report`` endpoint. A canary proves both channels would have caught one.
Screenshots go to ``artifacts/browser/csp-*.png``."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from grader.db import Database
from grader.lms import integrations
from grader.models import Course, ExerciseVersion, Membership, Role, User
from grader.models.integrations import Delivery, DeliveryKind, DeliveryState
from grader.web.security import CSP
from tests.chromium import WebDriverWait, chromium
from tests.grader.conftest import TEST_PASSWORD_HASH
from tests.integration.test_browser import (
    ARTIFACTS,
    LIBRARY,
    PASSWORD,
    site,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser]
__all__ = ["site"]  # the fixture, shared with the other browser test

VIOLATION = re.compile(r"Refused to|Content Security Policy", re.I)
SETTLE_SECONDS = 0.6
"""How long a page is given to send its violation reports (they are sent at once)."""


class Reports(logging.Handler):
    """The violation reports our endpoint logged (the server runs in this process)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def reports() -> Iterator[Reports]:
    handler = Reports()
    logger = logging.getLogger("grader.web.security")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


@pytest.fixture
def console_browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    with chromium(1400, 1800, request=request) as driver:
        yield driver


class Tour:
    """Visits pages, keeping what each showed: its CSP header and any violation."""

    def __init__(self, driver: WebDriver, base: str, reports: Reports) -> None:
        self.driver = driver
        self.base = base
        self.reports = reports
        self.visited: list[str] = []
        self.violations: dict[str, list[str]] = {}
        self.headers: dict[str, str | None] = {}

    def visit(self, name: str, path: str | None = None) -> None:
        """Open ``path`` (or stay on the current page) and check it as ``name``."""
        if path is not None:
            self.driver.get(self.base + path)
        WebDriverWait(self.driver, 20).until(
            lambda driver: driver.execute_script("return document.readyState") == "complete"
        )
        self.check(name)

    def check(self, name: str) -> None:
        time.sleep(SETTLE_SECONDS)
        self.visited.append(name)
        self.headers[name] = self.driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "fetch(location.href, {credentials: 'same-origin'})"
            ".then(function (r) { done(r.headers.get('content-security-policy')); })"
            ".catch(function () { done(null); });"
        )
        found = [
            entry["message"]
            for entry in self.driver.get_log("browser")
            if VIOLATION.search(entry["message"])
        ]
        found += self.reports.messages
        self.reports.messages = []
        if found:
            self.violations[name] = found
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(ARTIFACTS / f"csp-{name}.png"))

    def sign_in(self, email: str) -> None:
        self.driver.get("about:blank")  # its scripts stopped first (see test_browser_deadlines)
        self.driver.delete_all_cookies()
        self.driver.get(f"{self.base}/login")
        self.driver.find_element(By.ID, "email").send_keys(email)
        self.driver.find_element(By.ID, "password").send_keys(PASSWORD)
        self.driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(self.driver, 10).until(expected_conditions.url_to_be(f"{self.base}/"))


def add_account(database: Database, course: Course, role: str) -> str:
    email = f"csp-{role}-{time.monotonic_ns()}@example.edu"
    with database.session() as session:
        user = User(email=email, name=f"CSP {role}", role=role,
                    password_hash=generate_password_hash(
                        PASSWORD, method=TEST_PASSWORD_HASH))  # fmt: skip
        session.add(user)
        session.flush()
        member = Role.STUDENT if role == Role.STUDENT else Role.INSTRUCTOR
        session.add(Membership(user_id=user.id, course_id=course.id, role=member))
        if role != Role.STUDENT:
            made = integrations.create(session, course, "CSP tour LMS", ["lms.example.edu"], user)
            session.add(
                Delivery(
                    kind=DeliveryKind.CALLBACK, event="submission.graded",
                    message_id=f"msg-{time.monotonic_ns()}", integration_id=made.integration.id,
                    url="https://lms.example.edu/callback", payload={"score": 1.0},
                    state=DeliveryState.FAILED, attempts=1, next_attempt_at=None,
                    last_error="refused by the test",
                )
            )  # fmt: skip
    return email


def latest_version(database: Database, exercise_id: int) -> int:
    with database.session() as session:
        found = session.scalar(
            select(ExerciseVersion.id)
            .where(ExerciseVersion.exercise_id == exercise_id)
            .order_by(ExerciseVersion.id.desc())
        )
        assert found is not None
        return found


def test_no_page_violates_the_content_security_policy(
    console_browser: WebDriver,
    site: tuple[str, int, str],
    pg_url: str,
    pg_course: Course,
    reports: Reports,
) -> None:
    base, exercise_id, student = site
    database = Database(pg_url)
    tour = Tour(console_browser, base, reports)
    driver = console_browser

    # The canary: an inline style attribute added to a page is caught on both channels.
    driver.get(f"{base}/login")
    driver.get_log("browser")
    driver.execute_script(
        "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">canary</p>')"
    )
    time.sleep(SETTLE_SECONDS)
    console = [e["message"] for e in driver.get_log("browser") if VIOLATION.search(e["message"])]
    assert console, "an inline style did not show as a violation in the console"
    deadline = time.monotonic() + 10
    while not reports.messages and time.monotonic() < deadline:
        time.sleep(0.1)
    assert any("style-src" in message for message in reports.messages), reports.messages
    reports.messages = []

    # Signed out.
    tour.visit("login", "/login")
    tour.visit("register", "/register")
    tour.visit("forgot", "/forgot")
    tour.visit("not-found", "/no-such-page")
    tour.visit("lti-login-refused", "/lti/login")

    # A student: home, exercise, a graded submission with its replay stepped through.
    tour.sign_in(student)
    tour.visit("student-home", "/")
    tour.visit("student-exercise", f"/exercises/{exercise_id}")
    tour.visit("join", "/join")
    driver.get(f"{base}/exercises/{exercise_id}")
    driver.find_element(By.ID, "upload").send_keys(str(LIBRARY / "correct_fail_hard.py"))
    driver.find_element(By.CSS_SELECTOR, "form[enctype] button[type=submit]").click()
    tour.visit("submission-waiting")
    WebDriverWait(driver, 120).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "#feedback .replay"))
    )
    tour.visit("submission-feedback")
    driver.find_element(By.CSS_SELECTOR, ".replay-next").click()
    driver.find_element(By.CSS_SELECTOR, ".replay-next").click()
    driver.find_element(By.CSS_SELECTOR, "g.node").click()
    tour.check("submission-replay-stepped")
    tour.visit("forbidden", "/teach/")
    tour.visit("student-api-problem", "/api/v1/submissions/1")

    # An instructor (of the course): teaching pages, upload, preview, class results, LMS.
    tour.sign_in(add_account(database, pg_course, Role.INSTRUCTOR))
    tour.visit("teach-home", "/teach/")
    tour.visit("teach-exercise", f"/teach/exercises/{exercise_id}/")
    tour.visit("teach-class-results", f"/teach/exercises/{exercise_id}/class-results")
    version = latest_version(database, exercise_id)
    tour.visit("teach-preview", f"/teach/exercises/{exercise_id}/versions/{version}")
    # The version's analysis may still be running on a busy machine: the page updates
    # itself when it is done, and then shows the reference trace's stepper.
    WebDriverWait(driver, 300).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "nav.stepper .next"))
    )
    driver.find_element(By.CSS_SELECTOR, "nav.stepper .next").click()
    tour.check("teach-preview-stepped")
    tour.visit("teach-upload", f"/teach/courses/{pg_course.id}/exercises/new")
    tour.visit("integrations", "/teach/integrations/")
    driver.find_element(By.CSS_SELECTOR, "main a[href*='/teach/integrations/']").click()
    WebDriverWait(driver, 10).until(expected_conditions.url_matches(r"/teach/integrations/\d+$"))
    tour.visit("integration")
    tour.visit("deliveries", "/teach/deliveries/")
    tour.visit("deliveries-course", f"/teach/deliveries/courses/{pg_course.id}")
    driver.find_element(By.CSS_SELECTOR, "main td a[href*='/teach/deliveries/']").click()
    WebDriverWait(driver, 10).until(expected_conditions.url_matches(r"/teach/deliveries/\d+$"))
    tour.visit("delivery")

    # An administrator: the LTI platforms, one registered through the form.
    tour.sign_in(add_account(database, pg_course, Role.ADMIN))
    tour.visit("lti-platforms", "/lti/platforms")
    for field, value in {
        "name": "CSP tour LMS",
        "issuer": "https://lms.example.edu",
        "client_id": "csp-tour",
        "deployment_ids": "1",
        "auth_login_url": "https://lms.example.edu/auth",
        "auth_token_url": "https://lms.example.edu/token",
        "key_set_url": "https://lms.example.edu/jwks",
    }.items():
        driver.find_element(By.ID, field).send_keys(value)
    driver.find_element(By.ID, "register-platform").click()
    WebDriverWait(driver, 10).until(expected_conditions.url_matches(r"/lti/platforms/\d+$"))
    tour.visit("lti-platform")
    tour.visit("admin-home", "/")
    database.engine.dispose()

    assert tour.violations == {}
    assert {name: header for name, header in tour.headers.items() if header != CSP} == {}
    assert len(tour.visited) == 27
