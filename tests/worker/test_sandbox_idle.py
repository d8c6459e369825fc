"""The scheduler's accounting in the sandbox: the idle limit (the lanes'): a search that
sleeps is stopped after that much real time spent neither computing nor waiting, while a
correct search on a machine whose CPUs are all taken is not mistaken for an idle one (its
waits for a CPU and for the grader's answers are read from the scheduler's accounting); and
a search kept waiting for a CPU gets its real time back (the deadline stretches by those
waits), while a sleeping one does not."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from reference.exercises.model import Limits
from reference.treefile import parse_compact
from tests.worker.test_sandbox_session import TWO_WAY, on_the_two_way_tree, run_trees
from tests.worker.test_sandbox_support import ALPHABETA, FIG52, leftover_processes, server
from worker.sandbox import SandboxVerdict, treeserver
from worker.sandbox.session import SchedClock

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
        asleep, spinning = SchedClock(sleeper.pid), SchedClock(spinner.pid)
        time.sleep(0.5)
        assert asleep.idle() > 0.3
        assert spinning.idle() < 0.2
    finally:
        for process in (sleeper, spinner):
            process.kill()
            process.wait(10)


def _spinners(cpus: list[int]) -> list[subprocess.Popen[bytes]]:
    """A process spinning on each CPU of ``cpus`` (only there), each in a session of its own
    (so that the kernel's autogroups weigh each as much as the sandbox's), each started."""
    spinners = [
        subprocess.Popen(
            [sys.executable, "-c", "print(flush=True)\nwhile True: pass"],
            stdout=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=lambda cpu=cpu: os.sched_setaffinity(0, {cpu}),  # type: ignore[misc]
        )
        for cpu in cpus
    ]
    for spinner in spinners:
        assert spinner.stdout is not None
        spinner.stdout.readline()
    return spinners


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.kill()
        process.wait(10)


def test_a_sched_clock_counts_the_waits_for_a_taken_cpu() -> None:
    cpu = min(os.sched_getaffinity(0))
    spinners = _spinners([cpu] * 3)
    try:
        clock = SchedClock(spinners[0].pid)
        time.sleep(0.6)
        # Three spinners on one CPU: each waits for it about two thirds of the time.
        assert clock.waited() > 0.2
        assert clock.idle() < 0.2
    finally:
        _stop(spinners)


@pytest.mark.slow  # seconds of searching among spinners
@pytest.mark.parametrize(
    "limits",
    [
        Limits(cpu_seconds=5, wall_seconds=1.0, memory_mb=64),
        # The submission's budget rather than the tree's wall limit: the same.
        Limits(cpu_seconds=5, wall_seconds=30, memory_mb=64, submission_wall_seconds=1.0),
    ],
    ids=["wall limit", "submission budget"],
)
@pytest.mark.parametrize(("stretch", "verdict"), [
    (20.0, SandboxVerdict.COMPLETED),
    (0.0, SandboxVerdict.TIME_LIMIT),
])  # fmt: skip
def test_a_search_kept_waiting_for_a_cpu_gets_its_real_time_back(
    monkeypatch: pytest.MonkeyPatch, stretch: float, verdict: SandboxVerdict, limits: Limits
) -> None:
    # 0.5 s of computing within a 1 s wall limit, on CPUs each shared with three spinners:
    # that takes about 2 s of real time, all of it computing or waiting for a CPU. With its
    # deadline stretched by the waits (far enough for any load of the machine the tests run
    # on), the search ends; without, it runs out of real time.
    monkeypatch.setattr(treeserver, "MAX_STRETCH", stretch)
    spinners = _spinners(sorted(os.sched_getaffinity(0)) * 3)
    try:
        (record,) = run_trees(
            on_the_two_way_tree(
                "[0 for _ in iter(lambda: __import__('time').process_time() > 0.5, True)]"
            ),
            [parse_compact(TWO_WAY)],
            limits,
            server(),
        )
    finally:
        _stop(spinners)
    assert record.outcome.verdict is verdict, record.outcome.message
    # The CPUs were taken (else this shows nothing): the search took more than its wall
    # limit to end, or did not get its half second of CPU within it.
    if verdict is SandboxVerdict.COMPLETED:
        assert record.usage.wall_ms > 1000
    else:
        assert record.usage.cpu_ms < 500
