"""A real Chromium for the browser tests: Debian's, driven by Selenium, headless; the app
served on loopback in a thread; axe-core (vendored under ``tests/vendor/axe-core``) run in
the page; screenshots saved under ``artifacts/browser/``."""

from __future__ import annotations

import base64
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait as SeleniumWait
from werkzeug.serving import make_server

from tests.failures import failed
from tests.servers import running

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
ARTIFACTS = ROOT / "artifacts" / "browser"
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""The rule sets checked: WCAG 2.1, levels A and AA."""

TRANSIENT = "unhandled inspector error"
"""What ChromeDriver answers, now and then, when asked about an element while the page is
being replaced (a form's answer arriving): the element will be asked about again."""


class WebDriverWait(SeleniumWait[WebDriver]):
    """Selenium's wait, which also waits through ChromeDriver's transient answers while a
    page is replaced (:data:`TRANSIENT`; a busy machine makes them likelier). Every other
    error stops the wait as before."""

    def until(self, method: Any, message: str = "") -> Any:
        def tolerant(driver: WebDriver) -> Any:
            try:
                return method(driver)
            except WebDriverException as error:
                if TRANSIENT in (error.msg or ""):
                    return False
                raise

        return super().until(tolerant, message)


def _launch(width: int, height: int) -> WebDriver:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail("Chromium and ChromeDriver are missing: ./scripts/test.sh installs them")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    arguments = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1"]  # fmt: skip
    for argument in arguments:
        options.add_argument(argument)
    # The console's messages, for get_log("browser") (a test that checks it sees its own).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    return driver


@dataclass
class _Kept:
    """The Chromium kept between the tests of one module (``quit_kept`` ends it), and
    whether a test holds it now."""

    driver: WebDriver | None = None
    held: bool = False


_kept = _Kept()


def quit_kept() -> None:
    """End the kept Chromium, if any (tests/conftest.py does after each module)."""
    if _kept.driver is not None and not _kept.held:
        driver, _kept.driver = _kept.driver, None
        driver.quit()


@contextmanager
def chromium(
    width: int = 1280, height: int = 900, *, request: pytest.FixtureRequest | None = None
) -> Iterator[WebDriver]:
    """A headless Chromium with a window of ``width`` x ``height`` CSS pixels, on a blank
    page without cookies and with an empty console log: the module's kept one (started by
    its first test), or a new one when a test asks for a second at once. When the test of
    fixture ``request`` failed, the browser's last page is kept (:func:`keep_last_page`)."""
    if _kept.held:
        driver = _launch(width, height)
        try:
            yield _sized(driver, width, height)
            if request is not None and failed(request):
                keep_last_page(driver, request.node.name)
        finally:
            driver.quit()
        return
    if _kept.driver is None:
        _kept.driver = _launch(width, height)
    driver = _kept.driver
    _kept.held = True
    try:
        driver.get("about:blank")
        # Every site's cookies, not only the page's: the next test's app is on another port
        # of the same host, where the last one's session cookie would be sent.
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.set_window_size(width, height)
        driver.get_log("browser")  # the last test's console messages, dropped
        yield _sized(driver, width, height)
        if request is not None and failed(request):
            keep_last_page(driver, request.node.name)
    except BaseException:
        # Whatever went wrong may have left the browser unusable: the next test gets a new one.
        _kept.driver = None
        driver.quit()
        raise
    finally:
        _kept.held = False


def keep_last_page(driver: WebDriver, test: str) -> None:
    """What the browser showed when ``test`` gave up: ``artifacts/browser/failed-<test>``,
    a screenshot and the page's source, named on standard error."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = ARTIFACTS / f"failed-{test}"
    driver.save_screenshot(f"{stem}.png")
    stem.with_suffix(".html").write_text(driver.page_source, encoding="utf-8")
    sys.stderr.write(f"the browser's last page, {driver.current_url}, is kept in {stem}.png\n")


def _sized(driver: WebDriver, width: int, height: int) -> WebDriver:
    # The viewport the page lays out in, exactly (a window cannot be made as narrow as a
    # phone's screen): a phone's for a narrow one.
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    return driver


@contextmanager
def served(app: Flask) -> Iterator[str]:
    """``app`` served on a free loopback port in a thread; its base URL."""
    with running(make_server("127.0.0.1", 0, app, threaded=True)) as server:
        yield f"http://127.0.0.1:{server.server_port}"


def sign_in(driver: WebDriver, base: str, email: str, password: str) -> None:
    """Sign in through the page's form, as a person does."""
    driver.get(f"{base}/login")
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    # Seconds, not a fraction of one: on a busy machine (the suite beside CPU burners) the
    # server's thread waits for a core (a 10 s wait was seen to run out).
    WebDriverWait(driver, 30).until(expected_conditions.url_to_be(f"{base}/"))


def settled(driver: WebDriver, timeout: float = 20) -> None:
    """Waits until no part of the page is busy (``aria-busy``): the parts that fetch what
    they show, such as the feedback page's tree views and replays, have it."""
    WebDriverWait(driver, timeout).until(
        lambda found: not found.find_elements(By.CSS_SELECTOR, "[aria-busy]")
    )


def axe_violations(driver: WebDriver) -> list[dict[str, Any]]:
    """What axe-core finds against WCAG 2.1 A and AA in the page as it is now: each
    violation's rule id, impact, help text and the first few offending elements."""
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: "tag", values: arguments[0]}})
          .then((found) => done(found.violations.map((v) => ({
              id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + n.failureSummary)
          }))))
          .catch((error) => done([{id: "axe-error", impact: "critical",
                                   help: String(error), nodes: []}]));
        """,
        AXE_RULES,
    )
    return list(result)


def sideways_overflow(driver: WebDriver) -> dict[str, int]:
    """The elements that stick out of the viewport on the right, each with by how many CSS
    pixels (empty: the page does not scroll sideways). An element is named by its tag,
    classes and text's start."""
    found = driver.execute_script(
        """
        const width = document.documentElement.clientWidth, out = {};
        if (document.documentElement.scrollWidth <= width) { return out; }
        for (const element of document.body.querySelectorAll("*")) {
          const over = Math.round(element.getBoundingClientRect().right - width);
          if (over <= 0 || element.closest("svg") !== null && element.tagName !== "svg") continue;
          const classes = typeof element.className === "string" && element.className
              ? "." + element.className.trim().replace(/ +/g, ".") : "";
          const text = (element.textContent || "").trim().slice(0, 30);
          const name = element.tagName.toLowerCase() + classes + " '" + text + "'";
          out[name] = over;
        }
        return out;
        """
    )
    return dict(found)


def screenshot(driver: WebDriver, name: str) -> Path:
    """The whole page (beyond the viewport too) saved as ``artifacts/browser/<name>.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"],
                     "height": min(size["height"], 8000), "scale": 1},
        },
    )  # fmt: skip
    path.write_bytes(base64.b64decode(shot["data"]))
    return path
