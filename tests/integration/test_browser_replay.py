"""The replay in a real Chromium, against the real app and worker: with alpha never updated
on Figure 5.2, the arrow keys step through both searches, the jump to the first different
step lands on C (where the feedback says the search first differs) with alpha marked in
both columns, and the replay and the trees talk through their events. Screenshots go to
``artifacts/browser/``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions

from tests.chromium import WebDriverWait, settled
from tests.integration.test_browser import (  # the fixtures of the browser tests
    ARTIFACTS,
    LIBRARY,
    PASSWORD,
    _upload,
    browser,  # noqa: F401
    site,  # noqa: F401
)

pytestmark = [pytest.mark.integration, pytest.mark.browser]

REPLAY = "#feedback section.case .replay"


def _sign_in(driver: WebDriver, base: str, email: str) -> None:
    driver.get(f"{base}/login")
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, 10).until(expected_conditions.url_to_be(f"{base}/"))


def _text(driver: WebDriver, selector: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, selector).text


def _current(driver: WebDriver, side: str) -> list[str]:
    """The nodes drawn as the replay's current step on ``side``."""
    found = driver.find_elements(
        By.CSS_SELECTOR, f'#feedback figure[data-side="{side}"] g.node.current'
    )
    return [node.get_attribute("data-node") or "" for node in found]


def test_the_replay_steps_by_keys_and_jumps_to_the_divergence(
    browser: WebDriver,  # noqa: F811
    site: tuple[str, int, str],  # noqa: F811
) -> None:
    base, exercise_id, email = site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _sign_in(browser, base, email)
    _upload(browser, base, exercise_id, LIBRARY / "wrong_alpha_never_updated.py")
    WebDriverWait(browser, 90).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, REPLAY))
    )
    # Its steps and the trees are fetched by the page's scripts: busy until then.
    settled(browser)
    feedback = _text(browser, "#feedback")
    assert "first differs, at C" in feedback or "at C" in feedback
    # Every "replay:step" the section hears, kept for the test to read.
    browser.execute_script(
        "window.steps = [];"
        "document.querySelector('#feedback section.case').addEventListener('replay:step',"
        " function (event) { window.steps.push(event.detail); });"
    )
    box = browser.find_element(By.CSS_SELECTOR, REPLAY)
    browser.execute_script("arguments[0].focus();", box)
    assert browser.switch_to.active_element == box
    total = int(_text(browser, f"{REPLAY} .replay-counter").split()[0])

    box.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert _text(browser, f"{REPLAY} .replay-counter") == f"step 3 of {total}"
    assert _text(browser, f"{REPLAY} .replay-student") == "enter B1 (alpha = -inf, beta = +inf)"
    box.send_keys(Keys.ARROW_LEFT)
    assert _text(browser, f"{REPLAY} .replay-counter") == f"step 2 of {total}"
    assert _current(browser, "student") == ["B"] and _current(browser, "reference") == ["B"]
    box.send_keys(Keys.END)
    assert _text(browser, f"{REPLAY} .replay-counter") == f"step {total} of {total}"
    box.send_keys(Keys.HOME)
    assert _text(browser, f"{REPLAY} .replay-counter") == f"step 1 of {total}"
    steps: list[dict[str, Any]] = browser.execute_script("return window.steps;")
    assert [step["index"] for step in steps] == [0, 1, 2, 1, total - 1, 0]
    assert steps[1] == {"index": 1, "student": "B", "reference": "B"}

    jump = browser.find_element(By.CSS_SELECTOR, f"{REPLAY} .replay-jump")
    found = re.fullmatch(r"go to the first different step \((\d+), at C\)", jump.text)
    assert found is not None, jump.text
    first = int(found.group(1))
    jump.click()
    assert _text(browser, f"{REPLAY} .replay-counter") == f"step {first} of {total}"
    assert _current(browser, "student") == ["C"] and _current(browser, "reference") == ["C"]
    mine = browser.find_element(By.CSS_SELECTOR, f"{REPLAY} .replay-student")
    theirs = browser.find_element(By.CSS_SELECTOR, f"{REPLAY} .replay-reference")
    assert mine.text == "enter C (alpha = -inf, beta = +inf)"
    assert theirs.text == "enter C (alpha = 3, beta = +inf)"
    for cell in (mine, theirs):
        assert "first-difference" in (cell.get_attribute("class") or "")
    assert [mark.text for mark in mine.find_elements(By.TAG_NAME, "mark")] == ["alpha = -inf"]
    assert [mark.text for mark in theirs.find_elements(By.TAG_NAME, "mark")] == ["alpha = 3"]
    assert _text(browser, f"{REPLAY} .replay-note") == "First difference: alpha"
    steps = browser.execute_script("return window.steps;")
    assert steps[-1] == {"index": first - 1, "student": "C", "reference": "C"}
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
    browser.save_screenshot(str(ARTIFACTS / "replay-first-difference.png"))

    # A node selected in the reference's tree: the replay goes to its first step there.
    browser.execute_script(
        "document.querySelector('#feedback section.case').dispatchEvent(new CustomEvent("
        "'tree:select', {detail: {side: 'reference', node: 'D'}}));"
    )
    assert _text(browser, f"{REPLAY} .replay-reference") == "enter D (alpha = 3, beta = +inf)"
    assert _current(browser, "reference") == ["D"]
