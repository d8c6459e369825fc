"""The submitted code in a real Chromium: beside the feedback and in view while it scrolls
on a wide screen, above it at 390 px without sideways scrolling, and the divergence's link
bringing the calling line into view. The app runs on loopback with SQLite and grades in
process (the eager queue). Screenshots go to ``artifacts/browser/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions

from grader.db import Database
from grader.models import Course, User
from tests.chromium import WebDriverWait, chromium, served
from tests.grader.conftest import PASSWORD, UserFactory, login
from tests.grader.web.test_student_pages import exercise_id, paste

pytestmark = [pytest.mark.integration, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "artifacts" / "browser"
WRONG = ROOT / "exercises" / "implementations" / "alphabeta" / "wrong_alpha_never_updated.py"
CALL_LINE = next(
    number
    for number, text in enumerate(WRONG.read_text(encoding="utf-8").splitlines(), start=1)
    if "v = max(v, min_value(" in text
)
"""The line of MAX-VALUE's call of MIN-VALUE, where the first divergence comes from (the
file's header grows as the library documents it: the line is read, not written here)."""
FIX_LINE = CALL_LINE - 1
"""MAX-VALUE's loop over the children, just above the call: nothing in it raises alpha."""


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium(1400, 900) as driver:
        yield driver


@pytest.fixture
def site(app: Flask) -> Iterator[str]:
    with served(app) as base:
        yield base


@pytest.fixture
def feedback_url(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> tuple[str, User]:
    """A graded submission of a search whose first divergence comes from ``CALL_LINE``: its
    page's path, and its author."""
    student = make_user(course=course)
    login(client, student)
    # Padding, so that the listing is longer than a screen and must scroll by itself.
    source = WRONG.read_text(encoding="utf-8") + "".join(f"\n# note {n}" for n in range(80))
    response = paste(client, exercise_id(database, course), source)
    assert response.status_code == 302
    return response.headers["Location"], student


def _sign_in(driver: WebDriver, base: str, user: User) -> None:
    driver.get(f"{base}/login")
    driver.find_element(By.ID, "email").send_keys(user.email)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, 20).until(expected_conditions.url_to_be(f"{base}/"))


def _box(driver: WebDriver, selector: str) -> dict[str, Any]:
    box: dict[str, Any] = driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};",
        selector,
    )
    return box


def _line_in_panel(driver: WebDriver, number: int) -> bool:
    """Whether line ``number`` of the listing is inside the panel's visible box."""
    shown: bool = driver.execute_script(
        "const line = document.getElementById('line-' + arguments[0]).getBoundingClientRect();"
        "const box = document.querySelector('.code-scroll').getBoundingClientRect();"
        "return line.top >= box.top - 1 && line.bottom <= box.bottom + 1"
        " && line.bottom <= window.innerHeight && line.top >= 0;",
        number,
    )
    return shown


def test_on_a_wide_screen_the_code_stays_beside_the_feedback(
    browser: WebDriver, site: str, feedback_url: tuple[str, User]
) -> None:
    path, student = feedback_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _sign_in(browser, site, student)
    browser.get(site + path)
    panel, feedback = _box(browser, ".code-panel"), _box(browser, "#feedback")
    assert panel["left"] >= feedback["right"], (panel, feedback)
    # The listing scrolls inside its panel: line 100 is out of view at first.
    assert not _line_in_panel(browser, 100)
    # The divergence's links: first the line where the fix belongs (the loop over the
    # children, where nothing raises alpha), marked too, then the calling line.
    fix, link = browser.find_elements(By.CSS_SELECTOR, ".divergence-box a.line-link")
    assert (fix.get_attribute("href") or "").endswith(f"#line-{FIX_LINE}")
    marked = browser.find_element(By.ID, f"line-{FIX_LINE}").get_attribute("class") or ""
    assert "mark-fix" in marked.split()
    # The call's link brings the calling line into view, marked.
    assert (link.get_attribute("href") or "").endswith(f"#line-{CALL_LINE}")
    link.click()
    WebDriverWait(browser, 5).until(lambda driver: _line_in_panel(driver, CALL_LINE))
    marked = browser.find_element(By.ID, f"line-{CALL_LINE}").get_attribute("class") or ""
    assert "mark-call" in marked.split()
    # Scrolled to the end of the page, the code is still in view.
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    height = browser.execute_script("return window.innerHeight")
    listing = _box(browser, ".code-scroll")
    shown = min(listing["bottom"], height) - max(listing["top"], 0)
    assert shown >= 0.8 * (listing["bottom"] - listing["top"]), (listing, height)
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(ARTIFACTS / "code-wide.png"))


def test_at_390_px_the_code_sits_above_the_feedback_without_sideways_scrolling(
    browser: WebDriver, site: str, feedback_url: tuple[str, User]
) -> None:
    path, student = feedback_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False},
    )
    _sign_in(browser, site, student)
    browser.get(site + path)
    width = browser.execute_script("return window.innerWidth")
    assert width == 390
    panel, feedback = _box(browser, ".code-panel"), _box(browser, "#feedback")
    assert panel["bottom"] <= feedback["top"], (panel, feedback)
    assert panel["left"] >= 0 and panel["right"] <= width, panel
    # The long lines scroll inside the panel: nothing of the panel is wider than the screen
    # (the page's other parts are not this test's).
    wide = browser.execute_script(
        "return [...document.querySelectorAll('.code-panel, .code-panel *')].filter(e => "
        "e.getBoundingClientRect().right > window.innerWidth + 0.5"
        " && !e.parentElement.closest('.code-scroll')).map(e => e.tagName + '.' + e.className)"
    )
    assert wide == []
    inside = browser.execute_script(
        "const box = document.querySelector('.code-scroll');"
        "return [box.scrollWidth > box.clientWidth, getComputedStyle(box).overflowX];"
    )
    assert inside == [True, "auto"]
    browser.find_element(By.CSS_SELECTOR, ".code-errors a.line-link").click()
    WebDriverWait(browser, 5).until(lambda driver: _line_in_panel(driver, CALL_LINE))
    browser.save_screenshot(str(ARTIFACTS / "code-390.png"))
