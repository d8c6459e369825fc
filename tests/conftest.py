"""Checks every test runs, whatever package it tests."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from reference.report import Report
from tests.failures import FAILED
from tests.strategies import QUICK, examples

# Speed is measured by the benches, not by timed tests: Hypothesis' per-example deadline
# would fail a correct test on a busy machine.
settings.register_profile("grader", deadline=None)
settings.register_profile("grader-quick", deadline=None, max_examples=examples(100))
settings.load_profile("grader-quick" if QUICK else "grader")


@pytest.fixture(autouse=True)
def reports_follow_their_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every report the tests produce (graded, stored, sent or printed: each goes through
    :meth:`Report.to_json`) is strict JSON that the report's model reads back strictly, as
    the same document."""
    dump = Report.to_json

    def checked(report: Report) -> dict[str, Any]:
        document = dump(report)
        text = json.dumps(document, allow_nan=False)
        again = Report.model_validate_json(text, strict=True)
        assert dump(again) == document, "a report does not read back as itself"
        return document

    monkeypatch.setattr(Report, "to_json", checked)
    return


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    """Whether the test itself failed, kept on its item (``FAILED``) for the fixtures that
    keep evidence of a failure when they end (tests/chromium.py: the browser's last page)."""
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


@pytest.fixture(scope="module", autouse=True)
def chromium_per_module() -> Iterator[None]:
    """The Chromium a module's browser tests share (tests/chromium.py) ends with the module."""
    yield
    chromium = sys.modules.get("tests.chromium")
    if chromium is not None:
        chromium.quit_kept()
