"""A submission's cost is bounded by the exercise, not by the student: after a tree hits a
limit or breaks the protocol no other tree runs, and the whole submission has one budget
of real time, however many trees the exercise has."""

from __future__ import annotations

import textwrap
import time

import pytest

from reference.exercises.model import Limits
from reference.treefile import parse_compact
from tests.worker.test_sandbox_support import FIG52, leftover_processes, server
from worker.harness.local import entry_spec
from worker.sandbox import (
    RunRecord,
    SandboxOptions,
    SandboxVerdict,
    run_sandboxed_trees,
)

pytestmark = pytest.mark.slow

SEARCH = """
def max_value(game, state, alpha, beta):
    {body}
    return 0
def min_value(game, state, alpha, beta):
    return 0
"""
QUICK_TREES = Limits(cpu_seconds=0.5, wall_seconds=1, memory_mb=64)


def run_trees(body: str, trees: int, limits: Limits) -> list[RunRecord]:
    """A max_value doing ``body`` on ``trees`` copies of Figure 5.2, graded as one
    submission."""
    tree = parse_compact(FIG52)
    runs = [(tree, entry_spec("alphabeta", ("max_value", "min_value"), tree))] * trees
    return run_sandboxed_trees(
        runs,
        textwrap.dedent(SEARCH.format(body=body)),
        "submission.py",
        limits,
        options=SandboxOptions(forkserver=server()),
    )


def verdicts(records: list[RunRecord]) -> list[SandboxVerdict]:
    return [record.outcome.verdict for record in records]


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        ("while True: pass", SandboxVerdict.TIME_LIMIT),
        ("import time; time.sleep(1000)", SandboxVerdict.TIME_LIMIT),
        ("x = bytearray(10**9)", SandboxVerdict.MEMORY_LIMIT),
        ("while True: print('spam' * 100)", SandboxVerdict.OUTPUT_LIMIT),
        ("game.actions(type(state)('0123456789abcdef'))", SandboxVerdict.PROTOCOL_VIOLATION),
    ],
)
def test_after_a_stopping_verdict_no_other_tree_runs(body: str, verdict: SandboxVerdict) -> None:
    records = run_trees(body, 3, QUICK_TREES)
    assert verdicts(records) == [verdict]
    assert verdict.ends_run
    assert leftover_processes(server()) == []


def test_a_runtime_error_does_not_stop_the_other_trees() -> None:
    records = run_trees("raise ValueError('no')", 3, QUICK_TREES)
    assert verdicts(records) == [SandboxVerdict.RUNTIME_ERROR] * 3
    assert not SandboxVerdict.RUNTIME_ERROR.ends_run


@pytest.mark.parametrize("body", ["while True: pass", "import time; time.sleep(1000)"])
def test_a_stuck_search_holds_the_sandbox_for_one_trees_limit_not_one_per_tree(
    body: str,
) -> None:
    started = time.monotonic()
    records = run_trees(body, 5, QUICK_TREES)
    elapsed = time.monotonic() - started
    assert verdicts(records) == [SandboxVerdict.TIME_LIMIT]
    assert elapsed < 2.5  # one tree's limit (1 s of real time at most), not five


def test_a_tree_cut_short_by_the_submissions_budget_says_so() -> None:
    # 0.6 s of sleep per tree: two trees fit in the budget of 1.5 s; the third is given
    # the 0.3 s left, less than its own wall limit, and the trees after it never run.
    limits = Limits(cpu_seconds=1, wall_seconds=1, memory_mb=64, submission_wall_seconds=1.5)
    started = time.monotonic()
    records = run_trees("import time; time.sleep(0.6)", 5, limits)
    elapsed = time.monotonic() - started
    assert verdicts(records) == [
        SandboxVerdict.COMPLETED,
        SandboxVerdict.COMPLETED,
        SandboxVerdict.TIME_LIMIT,
    ]
    assert "time budget" in records[-1].outcome.message
    assert "1.5 s" in records[-1].outcome.message
    assert elapsed < 2.0
    assert leftover_processes(server()) == []


def test_the_default_budget_is_twice_a_trees_wall_limit() -> None:
    # 0.4 s per tree against a budget of 2 x 0.5 s: the third tree is cut short.
    limits = Limits(cpu_seconds=1, wall_seconds=0.5, memory_mb=64)
    records = run_trees("import time; time.sleep(0.4)", 4, limits)
    assert verdicts(records) == [
        SandboxVerdict.COMPLETED,
        SandboxVerdict.COMPLETED,
        SandboxVerdict.TIME_LIMIT,
    ]
    assert "time budget (1 s" in records[-1].outcome.message
