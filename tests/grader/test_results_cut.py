"""A report cut to its size limit is stored with complete counts."""

from __future__ import annotations

from grader.services.results import result_rows


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
