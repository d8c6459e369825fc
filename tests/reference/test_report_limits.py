"""A report is cut to size in one place, with one set of limits: every field over its
limit comes out of :func:`reference.reporting.limits.fit` within it, cut once with one
mark, and no other module on the report's way keeps a limit of its own."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from reference.report import Report
from reference.reporting.limits import LIMITS, MARK, ReportLimits, fit

ROOT = Path(__file__).resolve().parents[2]
LONG = 5000
"""Longer than every text limit."""


def _step(node: str, **fields: Any) -> dict[str, Any]:
    return {"node": node, "event": "exit", **fields}


def over_every_limit(steps: int = LIMITS.replay_steps + 5) -> dict[str, Any]:
    """A report's JSON document with every field longer than its limit."""
    value, message, node = "7" * LONG, "m" * LONG, "N" * LONG
    replay_step = _step(node, alpha=value, beta=value, value=value, cutoff=message,
                        pruned=[node, "B"])  # fmt: skip
    return {
        "exercise": "e",
        "verdict": "failed",
        "score": 1.0,
        "max_score": 100,
        "message": message,
        "stdout": "é" * (LIMITS.stdout_kept + 10),
        "stdout_dropped": 3,
        "cases": [
            {
                "name": "T" * LONG,
                "hidden": False,
                "verdict": "failed",
                "message": message,
                "value": {"expected": value, "actual": value},
                "decision": {"expected": value, "actual": value},
                "first_divergence": {"node": node, "message": message},
                "nodes": [
                    {
                        "node": node,
                        "verdict": "wrong_value",
                        "expected": value,
                        "actual": value,
                        "message": message,
                    },
                ],
                "replay": {
                    "student": [replay_step] + [_step("A", value=1)] * (steps - 1),
                    "reference": [_step("A")] * steps,
                    "truncated": False,
                },
            }
        ],
        "diagnosis": {
            "exact": False,
            "summary": "s",
            "trees": 1,
            "misconceptions": [
                {
                    "implementations": ["f/" + "x" * LONG],
                    "name": "n",
                    "explanation": "e",
                    "pseudocode": "p",
                    "hint": "h",
                    "trees_matched": 0,
                    "closeness": 0.0,
                    "evidence": [],
                    "hidden_trees": 0,
                    "hidden_matched": 0,
                },
            ],
        },
    }


def lengths(report: Report) -> dict[str, int]:
    """The longest text of each kind of field of ``report``, and its replays' steps."""
    found: dict[str, int] = {
        "message": len(report.message),
        "stdout_kept": len(report.stdout),
        "name": 0,
        "node_name": 0,
        "value_text": 0,
        "implementation_name": 0,
        "replay_steps": 0,
    }

    def saw(kind: str, *texts: object) -> None:
        for text in texts:
            if isinstance(text, str):
                found[kind] = max(found[kind], len(text))

    for case in report.cases:
        saw("name", case.name)
        saw("message", case.message)
        for pair in (case.value, case.decision):
            if pair is not None:
                saw("value_text", pair.expected, pair.actual)
        for node in case.nodes or ():
            saw("node_name", node.node)
            saw("value_text", node.expected, node.actual)
            saw("message", node.message)
        if case.first_divergence is not None:
            saw("node_name", case.first_divergence.node)
            saw("message", case.first_divergence.message)
        if case.replay is not None:
            steps = (*case.replay.student, *case.replay.reference)
            found["replay_steps"] = max(len(case.replay.student), len(case.replay.reference))
            for step in steps:
                saw("node_name", step.node, *(step.pruned or ()))
                saw("value_text", step.alpha, step.beta, step.value)
                saw("message", step.cutoff)
    if report.diagnosis is not None:
        for told in report.diagnosis.misconceptions:
            saw("implementation_name", *told.implementations)
    return found


def size(report: Report) -> int:
    """Bytes of ``report``'s JSON document."""
    return len(json.dumps(report.to_json(), ensure_ascii=False).encode())


def test_a_report_over_every_limit_comes_out_within_every_limit() -> None:
    given = Report.model_validate(over_every_limit())
    assert all(getattr(LIMITS, kind) < n for kind, n in lengths(given).items())
    fitted = fit(given)
    for kind, longest in lengths(fitted).items():
        assert longest == getattr(LIMITS, kind), kind  # cut to the limit, not below it
    assert size(fitted) <= LIMITS.total_bytes
    assert fitted.cases[0].replay is not None and fitted.cases[0].replay.truncated
    # The printed output cut is counted, in bytes, with what was dropped before.
    assert fitted.stdout_dropped == 3 + 10 * len("é".encode())
    assert fitted.cut is None  # within its size once its fields are: nothing else cut


def test_a_report_over_its_size_once_its_fields_fit_is_cut_for_size_too() -> None:
    small = ReportLimits(total_bytes=60_000)
    fitted = fit(Report.model_validate(over_every_limit()), small)
    assert size(fitted) <= small.total_bytes
    assert fitted.cut is not None and "replays to 200 steps" in fitted.cut
    replay = fitted.cases[0].replay
    assert replay is not None and len(replay.student) == small.replay_steps_when_large


def test_a_long_value_or_message_is_cut_once_with_one_mark() -> None:
    fitted = fit(Report.model_validate(over_every_limit()))
    node = (fitted.cases[0].nodes or [])[0]
    for text in (node.actual, node.message, fitted.message, fitted.cases[0].name):
        assert isinstance(text, str) and text.count(MARK) == 1 and text.endswith(MARK)
    # Fitting a fitted report changes nothing: no second cut, no second mark.
    assert fit(fitted) is fitted
    assert fit(Report.model_validate(fitted.to_json())) == fitted


def test_a_report_within_its_limits_is_left_as_it_is() -> None:
    within = Report.model_validate(over_every_limit(steps=3) | {"message": "short"})
    within = fit(within)
    assert fit(within) is within


def test_an_older_stored_document_still_loads_and_fits() -> None:
    # As PR 0006's reports were stored: values cut by the worker, no limit fields.
    older = over_every_limit(steps=2)
    older["cases"][0]["nodes"][0]["actual"] = "7" * 39 + MARK
    assert Report.from_json(older).cases[0].nodes is not None
    assert fit(Report.from_json(older)).cases[0].nodes[0].actual == "7" * 39 + MARK  # type: ignore[index]


REPORT_PATH = (
    "reference/report.py",
    "reference/reporting",
    "worker/grading.py",
    "worker/execute.py",
    "grader/services/results.py",
    "grader/services/runs.py",
    "grader/web/replay.py",
    "grader/web/submission_view.py",
    "grader/models/submissions.py",
)
"""The modules a report passes through, from its building to its page."""
LIMIT_NAME = re.compile(r"_(LIMIT|CUT|KEPT|CHARS)S?$")


def report_limits_defined(root: Path = ROOT) -> list[str]:
    """``file: NAME`` for every module-level *_LIMIT (_CUT, _KEPT, _CHARS) of the report's
    path but the limits' own module."""
    found = []
    for place in REPORT_PATH:
        paths = sorted((root / place).rglob("*.py")) if (root / place).is_dir() else [root / place]
        for path in paths:
            relative = path.relative_to(root).as_posix()
            if relative == "reference/reporting/limits.py":
                continue
            for statement in ast.parse(path.read_text(encoding="utf-8")).body:
                targets = (
                    statement.targets
                    if isinstance(statement, ast.Assign)
                    else [statement.target]
                    if isinstance(statement, ast.AnnAssign)
                    else []
                )
                names = [target.id for target in targets if isinstance(target, ast.Name)]
                found += [f"{relative}: {name}" for name in names if LIMIT_NAME.search(name)]
    return found


def test_the_limits_live_in_one_place() -> None:
    assert report_limits_defined() == []


def test_a_limit_defined_elsewhere_is_found(tmp_path: Path) -> None:
    for place in REPORT_PATH:
        target = tmp_path / place
        if not place.endswith(".py"):
            target = target / "__init__.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("")
    (tmp_path / "grader/services/results.py").write_text("TEXT_LIMIT = 200\n")
    assert report_limits_defined(tmp_path) == ["grader/services/results.py: TEXT_LIMIT"]
