"""The idle limit (the fast lane's): a search that sleeps is stopped after that much real
time spent neither computing nor waiting, while a correct search on a machine whose CPUs
are all taken is not mistaken for an idle one (its waits for a CPU and for the grader's
answers are read from the scheduler's accounting)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from reference.exercises.model import Limits
from reference.treefile import parse_compact
from tests.worker.test_sandbox_session import TWO_WAY, on_the_two_way_tree, run_trees
from tests.worker.test_sandbox_support import ALPHABETA, FIG52, leftover_processes, server
from worker.sandbox import SandboxVerdict
from worker.sandbox.session import IdleClock

IDLE = Limits(cpu_seconds=2, wall_seconds=10, memory_mb=64, idle_seconds=0.2)


def test_a_search_that_sleeps_is_stopped_as_idle_long_before_its_wall_limit() -> None:
    trees = [parse_compact(FIG52), parse_compact(TWO_WAY)]
    records = run_trees(on_the_two_way_tree("__import__('time').sleep(5)"), trees, IDLE, server())
    assert [record.outcome.verdict for record in records] == [
        SandboxVerdict.COMPLETED,
        SandboxVerdict.TIME_LIMIT,
    ]
    assert "neither computing nor waiting" in records[1].outcome.message
    assert records[1].usage.wall_ms < 3000  # not the 5 s sleep, nor the 10 s wall limit
    assert leftover_processes(server()) == []


def test_without_an_idle_limit_a_sleep_runs_to_the_wall_limit() -> None:
    limits = Limits(cpu_seconds=2, wall_seconds=0.6, memory_mb=64)
    trees = [parse_compact(TWO_WAY)]
    (record,) = run_trees(
        on_the_two_way_tree("__import__('time').sleep(5)"), trees, limits, server()
    )
    assert record.outcome.verdict is SandboxVerdict.TIME_LIMIT
    assert "real time" in record.outcome.message
    assert "neither computing" not in record.outcome.message


def full_tree(depth: int, branching: int) -> str:
    """A complete tree in the compact form, MAX at the root, leaves numbered."""
    leaves = iter(range(10**9))

    def node(level: int) -> str:
        if level == depth:
            return str(next(leaves) % 97)
        kind = "MAX" if level % 2 == 0 else "MIN"
        return f"{kind}[ " + " ".join(node(level + 1) for _ in range(branching)) + " ]"

    return node(0)


@pytest.fixture
def busy_cpus() -> Iterator[None]:
    """Every CPU taken twice over by spinning processes while the test runs."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait(10)


def test_a_correct_search_on_a_busy_machine_is_not_idle(busy_cpus: None) -> None:
    # Thousands of game calls, each a wait for the grader's answer, and some computing at
    # each MAX node, on CPUs that the spinners keep busy: with an idle limit far below what
    # such waits add up to.
    limits = Limits(cpu_seconds=20, wall_seconds=60, memory_mb=64, idle_seconds=0.05)
    tree = parse_compact(full_tree(depth=5, branching=5))
    thinking = ALPHABETA.replace(
        "def max_value(game, state, alpha, beta):\n",
        "def max_value(game, state, alpha, beta):\n    sum(range(20000))\n",
    )
    (record,) = run_trees(thinking, [tree], limits, server())
    assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome.message
    assert record.usage.wall_ms > 100  # long enough for the idle limit to have been read


def test_an_idle_clock_counts_a_sleeping_process_and_not_a_spinning_one() -> None:
    # Each says when its start (CPU, and waits for one on a busy machine) is over.
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; print(flush=True); time.sleep(5)"],
        stdout=subprocess.PIPE,
    )
    spinner = subprocess.Popen(
        [sys.executable, "-c", "print(flush=True)\nwhile True: pass"], stdout=subprocess.PIPE
    )
    try:
        for process in (sleeper, spinner):
            assert process.stdout is not None
            process.stdout.readline()
        asleep, spinning = IdleClock(sleeper.pid), IdleClock(spinner.pid)
        time.sleep(0.5)
        assert asleep() > 0.3
        assert spinning() < 0.2
    finally:
        for process in (sleeper, spinner):
            process.kill()
            process.wait(10)
