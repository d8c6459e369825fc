"""A real Chromium (Debian's, driven by Selenium) against the real app, a real Celery
worker, PostgreSQL and Redis: a student signs in, uploads a correct alpha-beta solution and
sees C2 and C3 drawn as pruned, then uploads a wrong one and sees the flagged nodes.
Screenshots go to ``artifacts/browser/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from werkzeug.security import generate_password_hash
from werkzeug.serving import make_server

from grader.db import Database
from grader.models import Course, Membership, User
from grader.web import create_app
from tests.chromium import ARTIFACTS, WebDriverWait, chromium
from tests.grader.conftest import TEST_PASSWORD_HASH
from tests.integration.conftest import ROOT, SharedWorkers, exercise_of
from tests.servers import running

pytestmark = [pytest.mark.integration, pytest.mark.browser]

LIBRARY = ROOT / "exercises" / "implementations" / "alphabeta"
PASSWORD = "a browser's password"


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    with chromium(1400, 1800, request=request) as driver:
        yield driver


@pytest.fixture
def site(
    shared_workers: SharedWorkers, pg_course: Course, tmp_path: Path
) -> Iterator[tuple[str, int, str]]:
    """The app served on loopback with the session's workers; (base URL, exercise id,
    student email)."""
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    email = f"browser-{tmp_path.name}@example.edu"
    with database.session() as session:
        user = User(email=email, name="Browser Student",
                    password_hash=generate_password_hash(
                        PASSWORD, method=TEST_PASSWORD_HASH))  # fmt: skip
        session.add(user)
        session.flush()
        session.add(Membership(user_id=user.id, course_id=pg_course.id))
    exercise = exercise_of(database, pg_course, "aima-fig5.2-alphabeta")
    with running(
        make_server("127.0.0.1", 0, create_app(settings, database), threaded=True)
    ) as server:
        yield f"http://127.0.0.1:{server.server_port}", exercise.id, email
    database.engine.dispose()


def _upload(driver: WebDriver, base: str, exercise_id: int, path: Path) -> None:
    driver.get(f"{base}/exercises/{exercise_id}")
    driver.find_element(By.ID, "upload").send_keys(str(path))
    driver.find_element(By.CSS_SELECTOR, "form[enctype] button[type=submit]").click()


def _node(driver: WebDriver, name: str) -> str:
    """The classes of node ``name`` in the student's feedback drawing, once it is shown."""
    selector = f'#feedback figure[data-side="student"] g[data-node="{name}"]'
    WebDriverWait(driver, 90).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, selector))
    )
    return driver.find_element(By.CSS_SELECTOR, selector).get_attribute("class") or ""


def test_a_student_sees_pruned_and_flagged_nodes(
    browser: WebDriver, site: tuple[str, int, str]
) -> None:
    base, exercise_id, email = site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.get(f"{base}/login")
    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 10).until(expected_conditions.url_to_be(f"{base}/"))

    _upload(browser, base, exercise_id, LIBRARY / "correct_fail_hard.py")
    assert "verdict-pruned" in _node(browser, "C2")
    assert "verdict-pruned" in _node(browser, "C3")
    assert "verdict-ok" in _node(browser, "B1")
    cut = browser.find_elements(By.CSS_SELECTOR, '#feedback figure[data-side="student"] .cut-mark')
    assert cut, "the pruned branches are not drawn as cut"
    assert "100" in browser.find_element(By.ID, "feedback").text
    browser.save_screenshot(str(ARTIFACTS / "correct-alphabeta.png"))

    _upload(browser, base, exercise_id, LIBRARY / "wrong_no_pruning.py")
    assert "verdict-extra" in _node(browser, "C2")
    assert "verdict-extra" in _node(browser, "C3")
    feedback = browser.find_element(By.ID, "feedback").text
    assert "C2" in feedback  # the first divergence names the node
    browser.save_screenshot(str(ARTIFACTS / "wrong-no-pruning.png"))
