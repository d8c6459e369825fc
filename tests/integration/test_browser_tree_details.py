"""A big tree's feedback in a real Chromium (Debian's, driven by Selenium) against the real
app on SQLite, graded in this process: Nim from compartments 1-3-4 (4,348 nodes) searched
by minimax with the last child winning, wrong at many nodes. The page holds none of the
tree's nodes: its script fetches the drawing, and a node's details when it is opened; the
first divergence is named and brought into view, Enter on it opens its details (its
position and sentence, which the drawing does not hold) in the panel and in its label, the
views keep one tab stop each, and axe-core finds no WCAG 2.1 A/AA violation. Screenshot:
``artifacts/browser/tree-details-4348.png``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from grader.config import Settings
from tests.chromium import WebDriverWait
from tests.integration.test_browser_tree import (
    ACTIVE,
    ARTIFACTS,
    IN_VIEW,
    LIBRARY,
    Site,
    app,
    assert_accessible,
    browser,
    course,
    database,
    graded_page,
    make_user,
    migrated_template,
    open_trees,
    site,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser]
__all__ = ["app", "browser", "course", "database", "make_user", "migrated_template", "site"]

BIG = "nim-1-3-4-minimax"
BIG_YAML = """\
title: "Minimax on Nim with compartments of 1, 3 and 4"
algorithm: minimax
statement: |
  Nim from compartments of 1, 3 and 4 tokens: 4,348 nodes.
trees:
  - name: nim-1-3-4
    game: {name: nim, options: {compartments: [1, 3, 4]}}
"""

# What the page's script fetches when the node of the student's view at ``arguments[0]``
# (a name) is opened: every key of it, from the tree's nodes address.
DETAILS = """
const done = arguments[arguments.length - 1];
const box = document.querySelector('.tree-views');
fetch(box.dataset.treeUrl).then(response => response.json()).then(drawing => {
  const index = drawing.columns.n.indexOf(arguments[0]);
  return fetch(box.dataset.nodesUrl + index).then(response => response.json());
}).then(answer => done(answer.nodes[0]));
"""
FETCHED = """
return performance.getEntriesByType('resource').map(entry => entry.name)
  .filter(name => name.includes('/nodes/'));
"""


@pytest.fixture
def settings(tmp_path: Path, migrated_template: Path) -> Settings:
    """A library of one exercise: the big Nim tree."""
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copy(migrated_template, instance / "grader.db")
    library = tmp_path / "exercises"
    (library / BIG).mkdir(parents=True)
    (library / BIG / "exercise.yaml").write_text(BIG_YAML)
    return Settings(
        env="development",
        instance_dir=instance,
        exercises_dir=library,
        eager_tasks=True,
        submission_min_gap_seconds=0,
        submissions_per_hour=1000,
    )


def test_a_nodes_details_are_fetched_when_it_is_opened_on_a_big_tree(
    browser: WebDriver, site: Site
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    solution = LIBRARY / "minimax" / "wrong_last_child_wins.py"
    open_trees(browser, site, graded_page(site, BIG, solution))
    assert (
        browser.execute_script(
            "return document.querySelectorAll('script[type=\"application/json\"]').length"
        )
        == 0
    )  # the page holds no node: the drawing was fetched
    assert browser.execute_script(FETCHED) == []  # and no node's details yet
    shown = len(browser.find_elements(By.CSS_SELECTOR, 'figure[data-side="student"] g.node'))
    assert 0 < shown < 4348  # all-good subtrees folded

    # The first divergence, named on the page, is brought into view and focused.
    jump = browser.find_element(By.CSS_SELECTOR, ".tv-divergence")
    found = re.search(r"\((.+)\)", jump.text)
    assert found is not None
    node = found.group(1)
    assert (
        f"Where your search first differs, at {node}"
        in browser.find_element(By.CSS_SELECTOR, ".divergence-box").text
    )
    jump.click()
    selector = f'figure[data-side="student"] g.node[data-node="{node}"]'
    assert browser.execute_script(IN_VIEW, selector) is True
    assert browser.execute_script(ACTIVE) == node

    # Enter opens it: its details are fetched and told in the panel and in its label.
    expected: dict[str, Any] = browser.execute_async_script(DETAILS, node)
    assert expected["n"] == node and expected.get("g"), expected  # a Nim position
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    panel = browser.find_element(By.CSS_SELECTOR, ".node-details")
    told = f"position: {expected['g']}"
    WebDriverWait(browser, 10).until(lambda _driver: told in panel.text)
    if expected.get("m"):
        assert expected["m"] in panel.text
    label = browser.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-label") or ""
    assert told in label
    assert any(url.endswith(f"/nodes/{expected['i']}") for url in browser.execute_script(FETCHED))

    stops = browser.execute_script(
        "return [...document.querySelectorAll('.tree-views [tabindex]')]"
        ".map(e => e.tagName.toLowerCase())"
    )
    assert stops == ["svg", "svg"]  # one tab stop per view, none per node
    assert_accessible(browser)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", panel)
    browser.save_screenshot(str(ARTIFACTS / "tree-details-4348.png"))
