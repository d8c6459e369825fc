"""The exercise page's editor in a real Chromium against the real app, a real Celery worker,
PostgreSQL and Redis: the starter is loaded into an empty draft, a student types a search
into the editor, checks it on the public trees (a check, not an attempt, its feedback
shown), leaves the editor with Escape then Tab, and submits the same code as an attempt.
Screenshots go to ``artifacts/browser/editor-*.png``."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions

from tests.chromium import WebDriverWait, chromium
from tests.integration.test_browser import (  # noqa: F401  (site: a fixture)
    ARTIFACTS,
    LIBRARY,
    PASSWORD,
    site,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser]

VIOLATION = re.compile(r"Content[- ]Security[- ]Policy|Refused to", re.I)
CONTENT = "form.editor-form .cm-content"


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    with chromium(1400, 1800, request=request) as driver:
        yield driver


def _editor_text(driver: WebDriver) -> str:
    """The editor's text as its lines show it, read in one step: the editor redraws its
    lines as it likes, so elements found in one call may be gone by the next."""
    script = "return Array.from(document.querySelectorAll(arguments[0]), l => l.innerText);"
    lines = driver.execute_script(script, f"{CONTENT} .cm-line")
    return "\n".join(line.rstrip("\n") for line in lines)


def _type_source(driver: WebDriver, source: str) -> None:
    """Type ``source`` into the focused editor, key by key, as a person would: the editor
    indents each new line by itself, so the line's own indentation replaces it."""
    content = driver.find_element(By.CSS_SELECTOR, CONTENT)
    content.send_keys(Keys.CONTROL, "a")
    content.send_keys(Keys.DELETE)
    for number, line in enumerate(source.splitlines()):
        if number:
            content.send_keys(Keys.ENTER)
            # Select the indentation the editor put there; the typed line replaces it.
            content.send_keys(Keys.SHIFT, Keys.HOME)
            if not line.strip():
                content.send_keys(Keys.DELETE)
        if line.strip():
            content.send_keys(line)


def _violations(driver: WebDriver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if VIOLATION.search(e["message"])]


def test_a_student_types_checks_and_submits_in_the_editor(
    browser: WebDriver,
    site: tuple[str, int, str],  # noqa: F811  (the fixture imported above)
) -> None:
    base, exercise_id, email = site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.get(f"{base}/login")
    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 10).until(expected_conditions.url_to_be(f"{base}/"))

    # The editor replaces the textarea, labelled, and starts from the starter file.
    browser.get(f"{base}/exercises/{exercise_id}")
    wait = WebDriverWait(browser, 20)
    wait.until(lambda driver: "def max_value" in _editor_text(driver))
    assert not browser.find_element(By.ID, "pasted").is_displayed()
    content = browser.find_element(By.CSS_SELECTOR, CONTENT)
    assert content.get_attribute("aria-label") == "Your code (Python)"
    assert content.get_attribute("aria-describedby") == "editor-hint"
    hint = browser.find_element(By.ID, "editor-hint").text
    assert "press Escape, then Tab" in hint
    # Python is highlighted: the keyword "def" is a token of its own.
    assert browser.find_elements(By.CSS_SELECTOR, f"{CONTENT} .cm-line span")

    source = (LIBRARY / "correct_fail_hard.py").read_text()
    content.click()
    _type_source(browser, source)
    assert _editor_text(browser).strip() == source.strip()
    # Tab indents inside the editor; Escape then Tab leaves it for the buttons.
    content.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("class") == "cm-content"
    assert _editor_text(browser).strip() != source.strip()  # the last line indented
    content.send_keys(Keys.SHIFT, Keys.TAB)
    assert _editor_text(browser).strip() == source.strip()
    content.send_keys(Keys.ESCAPE)
    browser.switch_to.active_element.send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.tag_name == "button", focused.get_attribute("outerHTML")
    browser.save_screenshot(str(ARTIFACTS / "editor-typed.png"))

    browser.find_element(By.CSS_SELECTOR, "button[formaction$='/checks']").click()
    pruned = '#feedback figure[data-side="student"] g[data-node="C2"]'
    # The drawing waits for the version's analysis, which on a busy machine queues behind
    # the course's other exercises'.
    WebDriverWait(browser, 300).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, pruned))
    )
    browser.save_screenshot(str(ARTIFACTS / "editor-check.png"))
    classes = browser.find_element(By.CSS_SELECTOR, pruned).get_attribute("class") or ""
    assert "verdict-pruned" in classes, browser.find_element(By.ID, "feedback").text[:3000]
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert heading.startswith("Check on the public trees"), heading
    notice = browser.find_element(By.ID, "check-notice").text
    assert "not an attempt" in notice and "hidden trees were not run" in notice
    assert not browser.find_elements(By.CSS_SELECTOR, ".hidden-trees")
    assert "No attempts yet" in browser.find_element(By.CSS_SELECTOR, "section.attempts").text
    browser.save_screenshot(str(ARTIFACTS / "editor-check.png"))

    # The same code as an attempt: graded on every tree, hidden ones too.
    browser.find_element(By.CSS_SELECTOR, "#check-notice button[type=submit]").click()
    WebDriverWait(browser, 90).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".hidden-trees"))
    )
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Attempt 1")
    assert not browser.find_elements(By.ID, "check-notice")
    browser.save_screenshot(str(ARTIFACTS / "editor-submitted.png"))
    assert _violations(browser) == []
