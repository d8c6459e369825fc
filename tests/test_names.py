"""One name per thing: the names issue 28 took apart stay apart.

- A *delivery* is an outbound LMS delivery (``grader.services.deliveries``, the
  ``deliveries`` table). A task's hold on a job row (a run, an analysis, an added check) is a
  *claim*, and a run counts its claims. Celery's own words (a message delivered again) are
  Celery's; the modules that claim rows say neither "delivery" nor "deliveries" for a claim.
- The *analyses* are the background work on an uploaded exercise version
  (``grader.services.analyses``); what a class did on an exercise is its *class results*
  (``grader.services.class_results``). Nothing is called analytics, but the page's old
  address, kept as a redirect for bookmarks.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

from grader.models import GradingRun

ROOT = Path(__file__).resolve().parent.parent

CLAIMING = (
    "grader/services/runs.py",
    "grader/services/analyses.py",
    "worker/execute.py",
    "worker/added_check.py",
)
"""The modules where a task claims a job row."""
OUTBOUND = re.compile(r"outbound deliveries|grader\.services\.deliveries|DELIVER_TASK", re.I)
"""How those modules may name the outbound LMS deliveries a finished job makes."""
OLD_ADDRESS = '@blueprint.route("/exercises/<int:exercise_id>/analytics")'
"""The class results page's old address, which redirects for good."""


def identifiers(tree: ast.AST) -> set[str]:
    """Every name the module binds or reads: variables, attributes, arguments, keywords,
    functions, classes and imported names."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.arg | ast.keyword):
            found.add(node.arg or "")  # a keyword's is None for **mapping
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name)
    return found


def test_the_modules_that_claim_job_rows_call_a_claim_a_claim() -> None:
    for relative in CLAIMING:
        text = (ROOT / relative).read_text()
        named = {name for name in identifiers(ast.parse(text)) if "deliver" in name.lower()}
        assert named <= {"DELIVER_TASK"}, f"{relative} names a claim a delivery: {named}"
        said = [
            line.strip()
            for line in text.splitlines()
            if "deliver" in OUTBOUND.sub("", line).lower()
        ]
        assert said == [], f"{relative} says delivery for something else than the LMS's: {said}"


def test_a_run_counts_its_claims() -> None:
    columns = set(GradingRun.__table__.c.keys())
    assert "claims" in columns
    assert "deliveries" not in columns


def test_what_a_class_did_is_its_class_results_and_nothing_is_called_analytics() -> None:
    assert importlib.util.find_spec("grader.services.class_results") is not None
    assert importlib.util.find_spec("grader.services.analytics") is None
    tracked = [
        path
        for folder in ("grader", "worker", "reference", "tests", "bench")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    named = [str(path.relative_to(ROOT)) for path in tracked if "analytics" in path.name]
    assert named == []
    said = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in tracked
        if path.parts[len(ROOT.parts)] in ("grader", "worker") and path.suffix != ".pyc"
        for line in path.read_text(errors="replace").splitlines()
        if "analytics" in line.lower()
    ]
    assert said == [f"grader/web/instructor.py: {OLD_ADDRESS}"]
