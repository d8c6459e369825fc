"""The report's verdicts cover every way a sandboxed run can end."""

from __future__ import annotations

from reference.report import RunVerdict
from worker.grading import NOT_RUN
from worker.sandbox import SandboxVerdict


def test_every_sandbox_verdict_but_completed_is_a_report_verdict() -> None:
    # A completed run is judged: its tree passed or failed.
    words = {str(verdict) for verdict in RunVerdict}
    assert {str(verdict) for verdict in SandboxVerdict} - words == {"completed"}
    assert {NOT_RUN, RunVerdict.INTERNAL_ERROR, "passed", "failed"} <= words
