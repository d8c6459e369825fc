"""Every value a grading can produce survives the trip to storage and back out, on SQLite and
on PostgreSQL: non-finite numbers, NUL and lone surrogates in what the student's code chose
to print, raise or name. Read back by the pages, the API and the LMS callback."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.lms import integrations
from grader.models import (
    Delivery,
    Exercise,
    GradingRun,
    LmsSubmission,
    NodeResult,
    RunState,
    TreeResult,
    User,
)
from grader.services.runs import Claim, finish_run, retry_run, start_run
from grader.services.submissions import submit
from grader.web import create_app
from tests.grader.conftest import Backend, SentAfterCommit, login, stored_report

SLUG = "aima-fig5.2-alphabeta"
HOSTILE = "nul\x00 lone\ud800 low\udc80 ansi\x1b[2K\r end"
SHOWN = "nul\\x00 lone\\ud800 low\\udc80 ansi\x1b[2K\r end"
"""HOSTILE as stored: what storage refuses is shown escaped, the rest kept."""


DIAGNOSIS: dict[str, Any] = {  # a report's diagnosis, as grading makes one
    "exact": True,
    "summary": "Your search behaves exactly like one with this mistake: alpha never raised.",
    "trees": 3,
    "misconceptions": [
        {
            "implementations": ["alphabeta/wrong_alpha_never_updated"],
            "name": "alpha never raised at MAX nodes",
            "explanation": "MAX-VALUE keeps the window it was given.",
            "pseudocode": "Figure 5.7, MAX-VALUE: α ← MAX(α, v)",
            "hint": "What does a MAX node learn about its window?",
            "trees_matched": 3,
            "closeness": 1.0,
            "trees_differing": 3,
            "trees_alike": 3,
            "evidence": [{"tree": "fig5.2", "matches": True, "agreeing": 12, "steps": 12}],
            "hidden_trees": 2,
            "hidden_matched": 2,
        }
    ],
}


def hostile_report() -> dict[str, Any]:
    """A report of Figure 5.2 such as a student's code can make: it returned inf, printed
    and raised NUL and lone surrogates, and asked about nodes with such names."""
    nodes: list[dict[str, Any]] = [
        {"node": "A", "verdict": "wrong_value", "expected": "3", "actual": math.inf,
         "message": f"A returned {HOSTILE}"},
        {"node": "B", "verdict": "ok", "expected": 3, "actual": -math.inf, "message": ""},
        {"node": "C", "verdict": "wrong_value", "expected": 2, "actual": math.nan,
         "message": "nan"},
        {"node": f"X{HOSTILE}", "verdict": "extra", "expected": None, "actual": None,
         "message": HOSTILE},
    ]  # fmt: skip
    return {
        "exercise": SLUG,
        "verdict": "runtime_error",
        "score": 12.5,
        "max_score": 100,
        "message": f"ValueError: {HOSTILE} (line 3)",
        "stdout": f"printed {HOSTILE}\n",
        "usage": {"cpu_ms": 5, "wall_ms": 40, "max_rss_kb": 9000},
        "cases": [
            {
                "name": "fig5.2",
                "hidden": False,
                "verdict": "failed",
                "message": HOSTILE,
                "replay": {
                    "student": [
                        {"node": "A", "event": "enter", "alpha": "-inf", "beta": "+inf"},
                        {"node": "A", "event": "exit", "value": math.inf},
                    ],
                    "reference": [{"node": "A", "event": "enter"}],
                    "truncated": False,
                    "decision_style": False,
                },
                "value": {"expected": 3, "actual": math.inf},
                "decision": {"expected": "a1", "actual": f"a{HOSTILE}"},
                "first_divergence": {"node": "A", "message": HOSTILE},
                "score": 12.5,
                "max_score": 100,
                "nodes": nodes,
            },
            {"name": "hidden-1", "hidden": True, "verdict": "failed", "message": "x"},
        ],
    }


def started_run(backend: Backend, *, callback_url: str | None = None) -> tuple[int, int, int]:
    """A submission through an LMS integration, its run started: ids of the submission, the
    run and the integration's student."""
    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
        ).one()
        submission = submit(session, backend.settings, student, exercise, "a.py", "x = 1\n")
        run_id = session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == submission.id)
        ).one()
        submission_id = submission.id
    with backend.database.session() as session:
        started = start_run(session, backend.settings, SentAfterCommit(), run_id, "w", "t")
    assert started.claim == Claim(run_id, 1)
    return submission_id, run_id, student.id


def finished(
    backend: Backend, run_id: int, report: Any, settings: Settings | None = None
) -> SentAfterCommit:
    """Run ``run_id`` finished by its first claim with ``report``: the deliveries sent."""
    sent = SentAfterCommit()
    with backend.database.session() as session:
        stored = finish_run(session, settings or backend.settings, sent, Claim(run_id, 1), report)
    assert stored
    return sent


def strict_json(text: str) -> Any:
    """``text`` parsed as strict JSON (no NaN or Infinity tokens)."""

    def refuse(token: str) -> None:
        raise ValueError(f"not strict JSON: {token}")

    return json.loads(text, parse_constant=refuse)


def test_a_report_with_what_storage_refuses_is_stored_and_read_back(backend: Backend) -> None:
    submission_id, run_id, student_id = started_run(backend)
    assert finished(backend, run_id, hostile_report()).deliveries == []

    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        assert (run.state, run.verdict, run.score) == (RunState.GRADED, "runtime_error", 12.5)
        assert run.message == f"ValueError: {SHOWN} (line 3)"
        report = stored_report(backend.database, run_id)
        assert report is not None
        assert report["stdout"] == f"printed {SHOWN}\n"
        case = report["cases"][0]
        assert case["value"] == {"expected": 3, "actual": "inf"}
        assert [node["actual"] for node in case["nodes"][:3]] == ["inf", "-inf", "nan"]
        assert case["replay"]["student"][1]["value"] == "inf"
        tree = session.scalars(
            select(TreeResult).where(TreeResult.run_id == run_id, TreeResult.position == 0)
        ).one()
        assert tree.message == SHOWN
        rows = {row.node: row for row in tree.nodes}
        # A node row stores a value as the report's JSON writes it.
        assert (rows["A"].actual, rows["B"].actual, rows["C"].actual) == (
            '"inf"',
            '"-inf"',
            '"nan"',
        )
        assert rows[f"X{SHOWN}"].message == SHOWN
        assert rows["A"].message == f"A returned {SHOWN}"

    # The pages and the API read it back.
    app = create_app(backend.settings, backend.database)
    client: FlaskClient = app.test_client()
    with backend.database.session() as session:
        student = session.get(User, student_id)
        assert student is not None
        session.expunge(student)
    login(client, student)
    page = client.get(f"/submissions/{submission_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "nul\\x00 lone\\ud800" in html
    assert "\x00" not in html
    assert '<th scope="row">Root value</th><td>3</td><td>inf</td>' in html
    assert "<svg" in html  # the tree drawn with its verdicts

    with backend.database.session() as session:
        made = integrations.create(session, backend.course, "Moodle", ["lms.example.edu"], None)
        session.add(LmsSubmission(submission_id=submission_id, integration_id=made.integration.id))
    answer = client.get(
        f"/api/v1/submissions/{submission_id}", headers={"Authorization": f"Bearer {made.token}"}
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    document = strict_json(answer.get_data(as_text=True))
    assert document["report"]["cases"][0]["value"]["actual"] == "inf"
    assert document["report"]["message"] == f"ValueError: {SHOWN} (line 3)"


def test_the_lms_callback_of_such_a_run_is_strict_json(backend: Backend) -> None:
    submission_id, run_id, _ = started_run(backend)
    with backend.database.session() as session:
        made = integrations.create(session, backend.course, "Moodle", ["lms.example.edu"], None)
        session.add(
            LmsSubmission(
                submission_id=submission_id,
                integration_id=made.integration.id,
                callback_url="https://lms.example.edu/hook",
            )
        )
    outbound = finished(backend, run_id, {**hostile_report(), "diagnosis": DIAGNOSIS}).deliveries
    assert len(outbound) == 1
    with backend.database.session() as session:
        delivery = session.get(Delivery, outbound[0])
        assert delivery is not None
        # The body send_callback posts.
        body = json.dumps(delivery.payload, separators=(",", ":"), allow_nan=False)
    body.encode("utf-8")
    sent = strict_json(body)
    assert sent["type"] == "submission.graded"
    assert sent["data"]["report"]["cases"][0]["value"]["actual"] == "inf"
    assert sent["data"]["report"]["stdout"] == f"printed {SHOWN}\n"
    assert sent["data"]["report"]["diagnosis"] == DIAGNOSIS  # the callback carries it


def test_a_failure_message_with_what_storage_refuses_is_stored(backend: Backend) -> None:
    _, run_id, _ = started_run(backend)
    last = replace(backend.settings, max_run_attempts=1)
    with backend.database.session() as session:
        retried = retry_run(
            session, last, SentAfterCommit(), Claim(run_id, 1), f"the grader raised {HOSTILE}"
        )
    assert retried is not None and not retried.again
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        assert (run.state, run.verdict) == (RunState.ERROR, "internal_error")
        assert f"the grader raised {SHOWN}" in (run.message or "")
        rows = session.scalars(
            select(NodeResult).join(TreeResult).where(TreeResult.run_id == run_id)
        )
        assert list(rows) == []


@pytest.mark.parametrize(
    ("value", "stored"),
    [(math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "nan"), ("a\x00b", "a\\x00b"),
     ("a\udc80", "a\\udc80")],
    ids=["inf", "-inf", "nan", "nul", "surrogate"],
)  # fmt: skip
def test_each_value_storage_refuses_is_stored_alone(
    backend: Backend, value: object, stored: str
) -> None:
    _, run_id, _ = started_run(backend)
    node = {"node": "A", "verdict": "wrong_value", "expected": "3", "actual": value}
    report = {
        "exercise": SLUG,
        "verdict": "failed",
        "score": 0,
        "max_score": 100,
        "message": "",
        "stdout": value if isinstance(value, str) else "",
        "cases": [
            {"name": "fig5.2", "hidden": False, "verdict": "failed", "message": "",
             "value": {"expected": 3, "actual": value}, "nodes": [node]},
        ],
    }  # fmt: skip
    assert finished(backend, run_id, report).deliveries == []
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        report = stored_report(backend.database, run_id)
        assert run is not None and report is not None
        assert report["cases"][0]["value"]["actual"] == stored
        row = session.scalars(
            select(NodeResult).join(TreeResult).where(TreeResult.run_id == run_id)
        ).one()
        assert row.actual == json.dumps(stored)  # as the report's JSON writes it
