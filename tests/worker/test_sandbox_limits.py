"""How runs that break the limits or the protocol end, and that they leave nothing behind."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from reference.exercises.model import Limits
from tests.worker.test_sandbox_support import (
    ALPHABETA,
    NOBODY,
    alive,
    leftover_processes,
    run,
    server,
)
from worker.sandbox import RunRecord, SandboxVerdict
from worker.sandbox import session as session_module

pytestmark = pytest.mark.slow

SEARCH = """
def max_value(game, state, alpha, beta):
    {body}
    return 0
def min_value(game, state, alpha, beta):
    return 0
"""


def search_that(body: str, **options: object) -> RunRecord:
    """Run a max_value whose body is ``body``; check the run left nothing behind."""
    record = run(SEARCH.format(body=body), **options)
    assert alive(server().pid)
    assert leftover_processes(server()) == []
    return record


def test_a_forged_handle_is_a_protocol_violation() -> None:
    record = search_that("game.actions(type(state)('0123456789abcdef'))")
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION
    assert "never handed out" in record.outcome.message


def test_a_malformed_message_is_a_protocol_violation() -> None:
    record = search_that("import os; os.write(4, b'\\x05\\x00\\x00\\x00?zzzz')")
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION


def test_a_flood_of_game_calls_is_a_protocol_violation() -> None:
    record = search_that("while True: game.terminal_test(state)")
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION
    assert "game calls" in record.outcome.message


def test_an_infinite_loop_hits_the_cpu_limit() -> None:
    record = search_that("while True: pass")
    assert record.outcome.verdict is SandboxVerdict.TIME_LIMIT
    assert "CPU" in record.outcome.message
    # From the run's CPU accounting, not the clock (the machine may be busy): stopped at
    # its 1 s of CPU, within the tenth of a second the trusted side checks at.
    assert 900 <= record.usage.cpu_ms < 1500


def test_a_loop_the_kernels_cpu_limit_ends_reports_that_limit_at_least(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The trusted side made blind to the child's CPU: only the kernel's limit (RLIMIT_CPU,
    # the backstop, here at the same 1 s) ends the loop. The kernel sends SIGXCPU once the
    # child has used that second; the exit's rusage alone once said 870 ms.
    monkeypatch.setattr(session_module, "_cpu_seconds", lambda _pid: 0.0)
    record = search_that("while True: pass")
    assert record.outcome.verdict is SandboxVerdict.TIME_LIMIT
    assert "CPU" in record.outcome.message
    assert 1000 <= record.usage.cpu_ms < 2500


def test_sleeping_hits_the_wall_clock_limit() -> None:
    started = time.monotonic()
    record = search_that("import time; time.sleep(60)", limits=Limits(1, 0.5, 64))
    assert record.outcome.verdict is SandboxVerdict.TIME_LIMIT
    assert "real time" in record.outcome.message
    # The run waits rather than computes; on a busy machine the trusted side may see the
    # limit passed a little late, never early.
    assert 0.5 <= time.monotonic() - started < 5.0


def test_a_blocking_read_hits_the_wall_clock_limit() -> None:
    record = search_that("import os; os.read(3, 1)", limits=Limits(1, 0.5, 64))
    assert record.outcome.verdict is SandboxVerdict.TIME_LIMIT


@pytest.mark.parametrize(
    "bomb",
    ["x = [0] * 10**10", "x = bytearray(10**9)", "x = []\n    while True: x.append([0] * 10**5)"],
)
def test_a_memory_bomb_hits_the_memory_limit(bomb: str) -> None:
    record = search_that(bomb)
    assert record.outcome.verdict is SandboxVerdict.MEMORY_LIMIT


def test_a_print_flood_hits_the_output_limit() -> None:
    record = search_that("while True: print('spam' * 100)")
    assert record.outcome.verdict is SandboxVerdict.OUTPUT_LIMIT
    assert len(record.stdout) == 64 * 1024


@pytest.mark.parametrize("exit_call", ["import sys; sys.exit(3)", "import os; os._exit(0)"])
def test_exiting_before_answering_is_a_runtime_error(exit_call: str) -> None:
    record = search_that(exit_call)
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR


def test_closing_the_channel_and_going_on_is_a_runtime_error() -> None:
    record = search_that("import os; os.close(3); os.close(4)\n    while True: pass")
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR
    assert "closed" in record.outcome.message


def test_a_forged_failure_report_is_not_blamed_on_the_grader() -> None:
    record = search_that("import os; os.write(4, b'\\x05\\x00\\x00\\x00Xboom')")
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION


def test_a_correct_search_passes_after_all_of_this() -> None:
    assert run(ALPHABETA).outcome.verdict is SandboxVerdict.COMPLETED


def test_a_report_naming_many_long_functions_still_arrives() -> None:
    # A hundred functions with long non-ASCII names, notes pending, then a runtime error:
    # the report lists what the file defines, and must still fit the protocol.
    record = run(
        "for i in range(100):\n"
        "    globals()['é' * 280 + str(i)] = lambda: 0\n"
        "globals()['\\ud800'] = lambda: 0\n"
        "def max_value(game, state, alpha, beta):\n"
        "    return min_value(game, state, alpha, beta)\n"
        "def min_value(game, state, alpha, beta):\n"
        "    raise ValueError('stop')\n"
    )
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR, record.outcome
    assert "stop" in record.outcome.message


def kill_the_busy_child(number: int) -> threading.Thread:
    """A thread that sends signal ``number`` to the fork-server's children that have used a
    tenth of a second of CPU time (the one searching, not one waiting for its job; and any
    other test's child still busy, which would otherwise be taken for it)."""
    parent = server().pid

    def hunt() -> None:
        killed: list[int] = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            for entry in Path("/proc").iterdir():
                try:
                    status = (entry / "status").read_text()
                    stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue  # not a process, or it ended while we looked
                fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
                busy = int(stat[11]) >= os.sysconf("SC_CLK_TCK") // 10  # utime, in ticks
                ours = int(fields["PPid"]) == parent and int(fields["Uid"].split()[0]) == NOBODY
                if ours and busy:
                    # Every busy child of the fork-server: another test's may still be ending.
                    killed.append(int(entry.name))
                    os.kill(int(entry.name), number)
            if killed:
                return
            time.sleep(0.01)

    hunter = threading.Thread(target=hunt)
    hunter.start()
    return hunter


@pytest.mark.parametrize(
    "number", [signal.SIGHUP, signal.SIGUSR1, signal.SIGTERM, signal.SIGQUIT, signal.SIGTRAP]
)
def test_a_child_ended_by_any_signal_is_a_runtime_error_naming_it(number: int) -> None:
    # However the child ends once the student's code runs in it, it is the submission's
    # outcome, never the grader's fault.
    hunter = kill_the_busy_child(number)
    record = search_that("while True: pass", limits=Limits(5, 5, 64))
    hunter.join()
    assert record.outcome.verdict is SandboxVerdict.RUNTIME_ERROR, record.outcome
    assert f"signal {signal.Signals(number).name}" in record.outcome.message
