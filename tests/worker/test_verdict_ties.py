"""The sandbox's verdict of a run and the report's verdict of a tree are one vocabulary:
every way a sandboxed run ends is a report verdict, said in words from one table, and
which verdicts are limits or end a submission is told by the verdicts themselves."""

from __future__ import annotations

from reference.report import RunVerdict
from reference.verdict_words import WORDS
from worker.sandbox import SandboxVerdict


def test_every_sandbox_verdict_maps_to_the_report_verdict_of_its_tree() -> None:
    for verdict in SandboxVerdict:
        if verdict is SandboxVerdict.COMPLETED:
            # A completed run is judged: its tree passed or failed.
            assert verdict.run_verdict is None
            assert verdict.judged(True) is RunVerdict.PASSED
            assert verdict.judged(False) is RunVerdict.FAILED
        else:
            assert verdict.run_verdict is RunVerdict(verdict.value)
            assert verdict.judged(True) is verdict.judged(False) is verdict.run_verdict


def test_every_report_verdict_is_judged_never_run_or_a_sandbox_verdict() -> None:
    stopped = {verdict.run_verdict for verdict in SandboxVerdict} - {None}
    judged = {verdict for verdict in RunVerdict if verdict.is_judged}
    assert judged == {RunVerdict.PASSED, RunVerdict.FAILED}
    assert set(RunVerdict) == stopped | judged | {RunVerdict.NOT_RUN}


def test_every_verdict_has_its_words() -> None:
    assert {verdict.value for verdict in RunVerdict} <= WORDS.keys()
    assert {verdict.value for verdict in SandboxVerdict} <= WORDS.keys()


def test_the_limit_verdicts_are_exactly_the_members_marked_so() -> None:
    limits = {verdict for verdict in RunVerdict if verdict.is_limit}
    assert limits == {RunVerdict.TIME_LIMIT, RunVerdict.MEMORY_LIMIT}
    # A stored verdict (a string) is the same member.
    assert RunVerdict("time_limit").is_limit and not RunVerdict("output_limit").is_limit


def test_the_verdicts_that_end_a_run_are_the_limits_and_what_would_fail_again() -> None:
    ending = {verdict for verdict in RunVerdict if verdict.ends_run}
    assert ending == {
        RunVerdict.TIME_LIMIT,
        RunVerdict.MEMORY_LIMIT,
        RunVerdict.OUTPUT_LIMIT,
        RunVerdict.PROTOCOL_VIOLATION,
        RunVerdict.COMPILE_ERROR,
    }
    assert all(verdict.ends_run for verdict in RunVerdict if verdict.is_limit)
    for verdict in SandboxVerdict:
        tree = verdict.run_verdict
        assert verdict.ends_run == (tree is not None and tree.ends_run)
