"""A report cut to its size limit is stored with complete counts, as it was fitted (the
service cuts nothing again), in columns as wide as the report's limits."""

from __future__ import annotations

from typing import Any

from grader.models import GradingRun, NodeResult, TreeResult
from grader.services.results import encode_value, result_rows
from reference.report import Report
from reference.reporting.limits import LIMITS, MARK, fit
from tests.grader.conftest import Backend, stored_report
from tests.grader.test_storage import finished, started_run
from tests.reference.test_report_limits import LONG, over_every_limit


def test_a_cut_reports_omitted_nodes_are_counted() -> None:
    case = {
        "name": "wide",
        "hidden": False,
        "verdict": "failed",
        "nodes": [{"node": "B8.10", "verdict": "wrong_value", "expected": "3", "actual": "4"}],
        "nodes_omitted": {"ok": 20_000},
    }
    report = {"exercise": "e", "verdict": "failed", "score": 0.0, "max_score": 1}
    (rows,) = result_rows({**report, "message": "", "cases": [case]}, node_rows_limit=2000)
    assert rows.tree["counts"] == {"wrong_value": 1, "ok": 20_000}
    assert rows.tree["node_count"] == 20_001
    assert [node["node"] for node in rows.nodes] == ["B8.10"]


def test_a_report_over_every_limit_is_stored_and_read_back_as_fitted(backend: Backend) -> None:
    _, run_id, _ = started_run(backend)
    document = over_every_limit()
    # A value of control characters only: six characters each in a node row's JSON.
    document["cases"][0]["nodes"][0]["actual"] = "\x01" * LONG
    finished(backend, run_id, document)
    stored = stored_report(backend.database, run_id)
    fitted = fit(Report.model_validate(document))
    assert stored == fitted.to_json()
    node = stored["cases"][0]["nodes"][0] if stored else {}
    # Cut once, by the one function, with one mark: storing cut nothing again.
    assert node["actual"] == "\x01" * (LIMITS.value_text - 1) + MARK
    assert node["message"].count(MARK) == 1 and len(node["message"]) == LIMITS.message


def test_the_columns_hold_what_a_fitted_report_holds() -> None:
    def width(column: Any) -> int:
        return int(column.type.length)

    assert width(TreeResult.__table__.c.name) >= LIMITS.name
    assert width(TreeResult.__table__.c.divergence_node) >= LIMITS.node_name
    assert width(NodeResult.__table__.c.node) >= LIMITS.node_name
    for column in (NodeResult.__table__.c.expected, NodeResult.__table__.c.actual):
        assert width(column) >= LIMITS.stored_value
        assert len(encode_value("\x01" * LIMITS.value_text) or "") == LIMITS.stored_value
    # Two implementations of a composed misconception, joined by "+".
    assert width(GradingRun.__table__.c.misconception) >= 2 * LIMITS.implementation_name + 1
