"""The report's new optional fields: lines and the printed output left out, kept in its JSON
only when they have a value, and counted when a report cut to its limit drops the output."""

from __future__ import annotations

from reference.report import Divergence, Report, RunVerdict, TreeCase
from reference.reporting.limits import ReportLimits, fit


def _report(**fields: object) -> Report:
    return Report.model_validate(
        {
            "exercise": "e",
            "verdict": RunVerdict.FAILED,
            "score": 50.0,
            "max_score": 100,
            "message": "m",
            "cases": [
                TreeCase(
                    name="t",
                    hidden=False,
                    verdict=RunVerdict.FAILED,
                    first_divergence=Divergence(node="C", message="x", line=16),
                )
            ],
            **fields,
        }
    )


def test_lines_and_the_dropped_output_round_trip_and_are_left_out_when_absent() -> None:
    report = _report(line=4, column=33, stdout="hi", stdout_dropped=10)
    document = report.to_json()
    assert (document["line"], document["column"], document["stdout_dropped"]) == (4, 33, 10)
    assert document["cases"][0]["first_divergence"]["line"] == 16
    assert Report.from_json(document) == report
    bare = _report().to_json()
    assert not {"line", "column", "stdout_dropped"} & bare.keys()


def test_a_report_cut_to_its_limit_counts_the_output_it_drops() -> None:
    report = _report(stdout="é" * 3000, stdout_dropped=500)
    cut = fit(report, ReportLimits(total_bytes=2000))
    assert cut.stdout == ""
    assert cut.stdout_dropped == 500 + len(("é" * 3000).encode())
    assert cut.cut is not None and "printed output" in cut.cut
