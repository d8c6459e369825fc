"""The fork-server: it refuses to grade where it cannot confine, unless told it may."""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

from tests.worker.test_sandbox_support import (
    ALPHABETA,
    alive,
    leftover_processes,
    run,
    server,
)
from worker.sandbox import ForkServer, SandboxUnavailable, SandboxVerdict

needs_setpriv = pytest.mark.skipif(shutil.which("setpriv") is None, reason="needs setpriv")


def unprivileged_python(folder: Path) -> str:
    """A 'python' that runs as nobody: a fork-server started with it cannot change users."""
    script = folder / "python-as-nobody"
    script.write_text(
        "#!/bin/sh\n"
        f'exec setpriv --reuid=65534 --regid=65534 --clear-groups {sys.executable} "$@"\n'
    )
    script.chmod(0o755)
    return str(script)


@needs_setpriv
def test_a_server_that_cannot_change_users_refuses_to_start(tmp_path: Path) -> None:
    forkserver = ForkServer(python=unprivileged_python(tmp_path))
    with pytest.raises(SandboxUnavailable, match="GRADER_SANDBOX_ALLOW_UNCONFINED"):
        forkserver.start()
    assert not forkserver.running


@needs_setpriv
def test_unconfined_runs_are_possible_when_explicitly_allowed(tmp_path: Path) -> None:
    with ForkServer(python=unprivileged_python(tmp_path), allow_unconfined=True) as forkserver:
        assert forkserver.problems
        record = run(ALPHABETA, forkserver=forkserver)
    assert record.outcome.verdict is SandboxVerdict.COMPLETED


def test_the_real_server_is_fully_confined_and_restarts_after_a_stop() -> None:
    forkserver = server()
    assert forkserver.problems == []
    first = forkserver.pid
    forkserver.stop()
    assert not alive(first)
    assert run(ALPHABETA).outcome.verdict is SandboxVerdict.COMPLETED
    assert server().pid != first


def test_a_child_that_died_waiting_for_its_run_is_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert run(ALPHABETA).outcome.verdict is SandboxVerdict.COMPLETED
    # On a busy machine the child for the next run may still be on its way when the
    # children standing by are killed, and the run then takes a live one: kill again
    # until a run has met a dead child (the first time, on a quiet machine).
    for _ in range(5):
        standing_by = server().settle()
        assert standing_by
        for pid in standing_by:
            os.kill(pid, signal.SIGKILL)
        record = run(ALPHABETA)
        assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
        if "ended before its run" in caplog.text:
            break
    assert "ended before its run" in caplog.text
    assert leftover_processes(server()) == []


def _ignored(pid: int) -> int:
    """The mask of the signals process ``pid`` ignores."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(
        next(line for line in status.splitlines() if line.startswith("SigIgn:")).split()[1], 16
    )


def test_a_server_started_ignoring_hangups_gives_its_children_the_default_actions() -> None:
    # As under nohup, or in a non-interactive shell's background: an ignored signal stays
    # ignored across exec, and a child that ignored SIGHUP outlived a signal that ends it.
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        forkserver = ForkServer()
        forkserver.start()
    finally:
        signal.signal(signal.SIGHUP, before)
    try:
        assert forkserver.pid is not None
        assert _ignored(forkserver.pid) & (1 << (signal.SIGHUP - 1)) == 0
        assert run(ALPHABETA, forkserver=forkserver).outcome.verdict is SandboxVerdict.COMPLETED
        children = forkserver.settle()  # the next run's child, standing by
        assert children
        for pid in children:
            assert _ignored(pid) & (1 << (signal.SIGHUP - 1)) == 0
    finally:
        forkserver.stop()
