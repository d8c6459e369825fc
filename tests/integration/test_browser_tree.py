"""The feedback page's tree views in a real Chromium (Debian's, driven by Selenium) against
the real app on SQLite, graded in this process: on Figure 5.2, Grundy-7, the expectimax
tree and a generated tree of 1,800 nodes, no two node boxes overlap (measured from the
rendered boxes), "Go to first divergence" brings the divergence into the viewport, the
replay's first different step is at the same node, axe-core finds no WCAG 2.1 A/AA
violation, each view is one tab stop whose arrow keys move the focus. Screenshots go to
``artifacts/browser/tree-*.png``."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from sqlalchemy import select
from werkzeug.serving import make_server

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, User
from tests.chromium import WebDriverWait, axe_violations, chromium, settled, sign_in
from tests.grader.conftest import (
    PASSWORD,
    app,
    course,
    csrf_token,
    database,
    login,
    make_user,
    migrated_template,
)
from tests.integration.conftest import ROOT
from tests.servers import running

pytestmark = [pytest.mark.integration, pytest.mark.browser]
__all__ = ["app", "course", "database", "make_user", "migrated_template"]  # shared fixtures

LIBRARY = ROOT / "exercises" / "implementations"
ARTIFACTS = ROOT / "artifacts" / "browser"
SHIPPED = ("aima-fig5.2-alphabeta", "grundy-7-minimax", "expectimax-dice")
GENERATED = "nim-2-2-3-minimax"
GENERATED_YAML = """\
title: "Minimax on Nim with compartments of 2, 2 and 3"
algorithm: minimax
statement: |
  Nim from compartments of 2, 2 and 3 tokens: 1,800 nodes.
trees:
  - name: nim-2-2-3
    game: {name: nim, options: {compartments: [2, 2, 3]}}
"""

# The boxes of every node of every tree view, and the pairs of one view that overlap; the
# nodes whose value does not fit in its shape.
OVERLAPS = """
const found = [];
let count = 0;
for (const svg of document.querySelectorAll('svg.tv-svg')) {
  const boxes = [...svg.querySelectorAll('g.node')].map(node => {
    const r = node.getBoundingClientRect();
    return {name: node.dataset.node, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom};
  });
  count += boxes.length;
  boxes.sort((a, b) => a.x0 - b.x0);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length && boxes[j].x0 < boxes[i].x1 - 0.01; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.y0 < b.y1 - 0.01 && b.y0 < a.y1 - 0.01) { found.push([a.name, b.name]); }
    }
  }
}
// A value wider than its shape.
for (const node of document.querySelectorAll('svg.tv-svg g.node')) {
  const value = node.querySelector('.value');
  if (value && value.getBBox().width > node.querySelector('.shape').getBBox().width) {
    found.push([node.dataset.node, 'value wider than its shape']);
  }
}
return [count, found.slice(0, 10)];
"""
IN_VIEW = """
const node = document.querySelector(arguments[0]);
if (!node) { return 'missing'; }
const r = node.getBoundingClientRect();
const s = node.closest('svg').getBoundingClientRect();
return r.left >= s.left && r.right <= s.right && r.top >= s.top && r.bottom <= s.bottom
  && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
"""
ACTIVE = """
const svg = document.activeElement;
const id = svg && svg.getAttribute('aria-activedescendant');
const node = id && document.getElementById(id);
return node ? node.dataset.node : null;
"""

# The page's tree document, as its script fetches it (for execute_async_script: the last
# argument is the callback).
DRAWING = """
const done = arguments[arguments.length - 1];
fetch(document.querySelector('.tree-views').dataset.treeUrl)
  .then(response => response.json())
  .then(document_ => done(found(document_.columns)));
"""

# The name of a leaf inside a collapsed subtree (from the page's tree document).
HIDDEN_LEAF = (
    """
function found(columns) {
const shown = new Set([...document.querySelectorAll('figure[data-side="student"] g.node')]
  .map(node => node.dataset.node));
for (let i = 0; i < columns.n.length; i++) {
  if (columns.k[i] === 'leaf' && !shown.has(columns.n[i])) { return columns.n[i]; }
}
return null;
}
"""
    + DRAWING
)
REPLAY_STEP = """
document.querySelector('section.case').dispatchEvent(new CustomEvent('replay:step',
  {detail: {index: 0, student: arguments[0], reference: arguments[0]}}));
"""
SELECT = """
const section = document.querySelector('section.case');
let told = null;
section.addEventListener('tree:select', event => { told = event.detail; }, {once: true});
document.querySelector(`figure[data-side="reference"] g.node[data-node="${arguments[0]}"]`)
  .dispatchEvent(new MouseEvent('click', {bubbles: true}));
return told;
"""

# The first folded subtree of the student's view: its name and the position of each node on
# the way to it among its siblings, from the root.
FOLDED_PATH = (
    """
function found(columns) {
const folded = document.querySelector('figure[data-side="student"] g.node.collapsed');
const index = columns.n.indexOf(folded.dataset.node);
const path = [];
for (let at = index; columns.p[at] !== null; at = columns.p[at]) {
  const siblings = columns.p.map((p, i) => [p, i]).filter(([p]) => p === columns.p[at]);
  path.unshift(siblings.findIndex(([, i]) => i === at));
}
return [folded.dataset.node, path];
}
"""
    + DRAWING
)


@dataclass(frozen=True)
class Site:
    base: str
    app: Flask
    database: Database
    course: Course
    student: User


@pytest.fixture
def settings(tmp_path: Path, migrated_template: Path) -> Settings:
    """The shipped exercises the tests draw, and a generated one of 1,800 nodes."""
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copy(migrated_template, instance / "grader.db")
    library = tmp_path / "exercises"
    for slug in SHIPPED:
        shutil.copytree(ROOT / "exercises" / slug, library / slug)
    (library / GENERATED).mkdir()
    (library / GENERATED / "exercise.yaml").write_text(GENERATED_YAML)
    return Settings(
        env="development",
        instance_dir=instance,
        exercises_dir=library,
        eager_tasks=True,
        submission_min_gap_seconds=0,
        submissions_per_hour=1000,
    )


@pytest.fixture
def site(app: Flask, database: Database, course: Course, make_user: Any) -> Iterator[Site]:
    with running(make_server("127.0.0.1", 0, app, threaded=True)) as server:
        yield Site(
            f"http://127.0.0.1:{server.server_port}",
            app,
            database,
            course,
            make_user(course=course),
        )


@pytest.fixture
def browser(request: pytest.FixtureRequest, site: Site) -> Iterator[WebDriver]:
    with chromium(1400, 1100, request=request) as driver:
        sign_in(driver, site.base, site.student.email, PASSWORD)
        yield driver


def graded_page(site: Site, slug: str, solution: Path) -> str:
    """The feedback page's path for ``solution`` pasted on exercise ``slug`` (graded here)."""
    with site.database.session() as session:
        exercise = session.scalar(
            select(Exercise.id).where(Exercise.course_id == site.course.id, Exercise.slug == slug)
        )
    client = site.app.test_client()
    login(client, site.student)
    response = client.post(
        f"/exercises/{exercise}/submissions",
        data={"csrf_token": csrf_token(client), "pasted": solution.read_text(encoding="utf-8")},
    )
    assert response.status_code == 302
    return str(response.headers["Location"]).split("#")[0]


def open_trees(browser: WebDriver, site: Site, path: str) -> None:
    """The page at ``path``, once its trees are drawn and its replays loaded (fetched by
    its scripts: busy until then)."""
    browser.get(site.base + path)
    WebDriverWait(browser, 20).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "svg.tv-svg g.node"))
    )
    settled(browser)


def assert_no_overlap(browser: WebDriver) -> int:
    count, overlapping = browser.execute_script(OVERLAPS)
    assert count > 0
    assert not overlapping, f"node boxes overlap: {overlapping}"
    return int(count)


def assert_replay_agrees(browser: WebDriver, node: str) -> None:
    """The replay's first different step is at the divergence's node."""
    jump = [shown for shown in browser.find_elements(By.CSS_SELECTOR, ".replay-jump")
            if shown.is_displayed()]  # fmt: skip
    if jump:
        assert f"at {node})" in jump[0].text, jump[0].text


def assert_accessible(browser: WebDriver) -> None:
    violations = axe_violations(browser)
    assert violations == [], violations


def assert_divergence_in_view(
    browser: WebDriver, node: str, sides: tuple[str, ...] = ("student", "reference")
) -> None:
    browser.find_element(By.CSS_SELECTOR, ".tv-divergence").click()
    for side in sides:
        selector = f'figure[data-side="{side}"] g.node[data-node="{node}"]'
        assert browser.execute_script(IN_VIEW, selector) is True, f"{node} not in view ({side})"
        classes = browser.find_element(By.CSS_SELECTOR, selector).get_attribute("class") or ""
        assert "spotlight" in classes


@pytest.mark.parametrize(
    ("slug", "solution", "divergence", "shot"),
    [
        ("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py", "C", "fig5.2"),
        ("grundy-7-minimax", "minimax/wrong_swapped_max_min.py", None, "grundy-7"),
        ("expectimax-dice", "expectimax/wrong_ignores_probabilities.py", None, "expectimax"),
    ],
)
def test_small_trees_draw_without_overlap_and_find_the_divergence(
    browser: WebDriver, site: Site, slug: str, solution: str, divergence: str | None, shot: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    open_trees(browser, site, graded_page(site, slug, LIBRARY / solution))
    assert_no_overlap(browser)
    jump = browser.find_element(By.CSS_SELECTOR, ".tv-divergence").text
    found = re.search(r"\((.+)\)", jump)
    assert found is not None
    if divergence is not None:
        assert found.group(1) == divergence
    assert_divergence_in_view(browser, found.group(1))
    assert_replay_agrees(browser, found.group(1))
    assert_accessible(browser)
    browser.save_screenshot(str(ARTIFACTS / f"tree-{shot}.png"))


def test_the_keyboard_moves_within_one_tab_stop(browser: WebDriver, site: Site) -> None:
    solution = LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py"
    open_trees(browser, site, graded_page(site, "aima-fig5.2-alphabeta", solution))
    stops = browser.execute_script(
        "return [...document.querySelectorAll('.tree-views [tabindex]')]"
        ".map(e => e.tagName.toLowerCase())"
    )
    assert stops == ["svg", "svg"]  # one tab stop per view, none per node
    svg = browser.find_element(By.CSS_SELECTOR, 'figure[data-side="student"] svg.tv-svg')
    svg.send_keys(Keys.HOME)
    assert browser.execute_script(ACTIVE) == "A"
    moves = [(Keys.ARROW_DOWN, "B"), (Keys.ARROW_RIGHT, "C"), (Keys.ARROW_RIGHT, "D"),
             (Keys.ARROW_DOWN, "D1"), (Keys.ARROW_LEFT, "D1"), (Keys.ARROW_RIGHT, "D2"),
             (Keys.ARROW_UP, "D"), (Keys.HOME, "A")]  # fmt: skip
    for key, expected in moves:
        svg.send_keys(key)
        assert browser.execute_script(ACTIVE) == expected, f"after {key!r}"
    svg.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    details = browser.find_element(By.CSS_SELECTOR, ".node-details")
    assert details.is_displayed() and "B (MIN)" in details.text
    browser.save_screenshot(str(ARTIFACTS / "tree-keyboard.png"))


def test_a_generated_tree_of_1800_nodes(browser: WebDriver, site: Site) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    solution = LIBRARY / "minimax" / "wrong_last_child_wins.py"  # 1,696 ok, 104 wrong
    open_trees(browser, site, graded_page(site, GENERATED, solution))
    shown = assert_no_overlap(browser)
    collapsed = browser.find_elements(By.CSS_SELECTOR, 'figure[data-side="student"] g.collapsed')
    assert collapsed, "no all-good subtree collapsed"
    assert shown < 1800 * 2
    # The keyboard reaches a folded subtree and Enter opens it.
    name, path = browser.execute_async_script(FOLDED_PATH)
    svg = browser.find_element(By.CSS_SELECTOR, 'figure[data-side="student"] svg.tv-svg')
    svg.send_keys(Keys.HOME)
    for position in path:
        svg.send_keys(Keys.ARROW_DOWN, *[Keys.ARROW_RIGHT] * position)
    assert browser.execute_script(ACTIVE) == name
    svg.send_keys(Keys.ENTER)
    folded = f'figure[data-side="student"] g.node[data-node="{name}"]'
    assert browser.find_element(By.CSS_SELECTOR, folded).get_attribute("aria-expanded") == "true"
    assert assert_no_overlap(browser) > shown
    svg.send_keys(Keys.ENTER)  # and folds it again
    assert browser.find_element(By.CSS_SELECTOR, folded).get_attribute("aria-expanded") == "false"
    jump = browser.find_element(By.CSS_SELECTOR, ".tv-divergence").text
    found = re.search(r"\((.+)\)", jump)
    assert found is not None
    assert_divergence_in_view(browser, found.group(1))
    assert_replay_agrees(browser, found.group(1))
    assert_accessible(browser)
    browser.save_screenshot(str(ARTIFACTS / "tree-generated-1800.png"))
    # The replay's current node, even inside a collapsed subtree, is opened and brought
    # into view on both sides; a click on a node tells the replay which one.
    hidden = browser.execute_async_script(HIDDEN_LEAF)
    assert hidden is not None, "no collapsed subtree"
    browser.execute_script(REPLAY_STEP, hidden)
    for side in ("student", "reference"):
        selector = f'figure[data-side="{side}"] g.node.current[data-node="{hidden}"]'
        assert browser.execute_script(IN_VIEW, selector) is True, f"{hidden} not in view ({side})"
    assert browser.execute_script(SELECT, hidden) == {"side": "reference", "node": hidden}
    # Opening a collapsed subtree (click) keeps the layout free of overlaps.
    browser.execute_script(
        "document.querySelector('figure[data-side=\"student\"] g.collapsed')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    assert assert_no_overlap(browser) > shown


def test_the_tree_views_fit_a_narrow_screen(browser: WebDriver, site: Site) -> None:
    browser.set_window_size(390, 844)
    solution = LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py"
    open_trees(browser, site, graded_page(site, "aima-fig5.2-alphabeta", solution))
    wide = browser.execute_script(
        "return [...document.querySelectorAll('.tree-views, .tree-views svg, .tv-controls')]"
        ".filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth)"
        ".map(e => e.className.baseVal ?? e.className)"
    )
    assert not wide
    assert_no_overlap(browser)
    # The views are stacked: the student's is the one brought into the window.
    assert_divergence_in_view(browser, "C", sides=("student",))
    browser.save_screenshot(str(ARTIFACTS / "tree-390px.png"))
