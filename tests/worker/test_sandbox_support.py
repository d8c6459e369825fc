"""Helpers shared by the sandbox tests: one fork-server for the session, runs, leftovers.

Every test runs real children of a real fork-server: nothing of the sandbox is mocked.
"""

from __future__ import annotations

import atexit
import os
import textwrap
import time
from pathlib import Path

from reference.exercises.model import Limits
from reference.tree import Tree
from reference.treefile import parse_compact
from worker.harness.local import entry_spec
from worker.sandbox import ForkServer, RunRecord, SandboxOptions, run_sandboxed

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"
NOBODY = 65534
QUICK = Limits(cpu_seconds=1, wall_seconds=10, memory_mb=64)
"""Small limits, so that the runs that hit them keep the suite fast. The real-time limit is
ten times the CPU one: on a busy machine a run that spins gets a fraction of a core, and
must still meet its CPU limit first (the runs that wait say their own real-time limit)."""

ALPHABETA = textwrap.dedent(
    """
    import math

    def max_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game, game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game, game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v
    """
)

_server: ForkServer | None = None


def server() -> ForkServer:
    """The tests' fork-server, started once (and again if a test stopped it)."""
    global _server
    if _server is None:
        _server = ForkServer()
        atexit.register(_server.stop)
    _server.start()
    return _server


def fig52() -> Tree:
    """AIMA Figure 5.2."""
    return parse_compact(FIG52)


def run(
    source: str,
    *,
    tree: Tree | None = None,
    algorithm: str = "alphabeta",
    limits: Limits = QUICK,
    **options: object,
) -> RunRecord:
    """Run ``source`` sandboxed on ``tree`` (Figure 5.2 by default)."""
    tree = tree or fig52()
    entries = ("negamax",) if algorithm.startswith("negamax") else ("max_value", "min_value")
    if algorithm.startswith("expect"):
        entries = ("max_value", "exp_value")
    spec = entry_spec(algorithm, entries, tree)
    if "forkserver" not in options:
        options["forkserver"] = server()
    settings = SandboxOptions(**options)  # type: ignore[arg-type]
    return run_sandboxed(
        tree, textwrap.dedent(source), "submission.py", spec, limits, options=settings
    )


def leftover_processes(forkserver: ForkServer, patience: float = 3.0) -> list[str]:
    """Processes that a run may have left: children of the fork-server, or anything
    running as the students' user, each described (pid, parent, state, command line).
    Runs kill their child before they return; the fork-server reaps it moments later
    (``settle`` waits for that). The children waiting for the next runs are not
    leftovers, nor are the children of other fork-servers (other test sessions may grade
    on this machine at the same time). A process seen once is a leftover only if it is
    still there after ``patience`` seconds: on a busy machine a process killed by another
    fork-server can be caught between its parent's death and its own."""
    deadline = time.monotonic() + patience
    while True:
        found = _leftovers(forkserver)
        if not found or time.monotonic() > deadline:
            return [_describe(pid) for pid in found]
        time.sleep(0.1)


def _leftovers(forkserver: ForkServer) -> list[int]:
    standby = forkserver.settle()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            parent = int(fields["PPid"])
            foreign = parent != forkserver.pid and _is_forkserver(parent)
        except OSError:
            continue  # ended while we looked
        uid = int(fields["Uid"].split()[0])  # the real uid (files of non-dumpable are root's)
        ours = (parent == forkserver.pid or uid == NOBODY) and not foreign
        if ours and int(entry.name) not in standby:
            found.append(int(entry.name))
    return found


def _describe(pid: int) -> str:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return f"{pid} (ended while described)"
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return (
        f"{pid} parent {fields['PPid'].strip()} uid {fields['Uid'].split()[0]} "
        f"state {fields['State'].strip()} command {command.strip()!r}"
    )


def _is_forkserver(pid: int) -> bool:
    return b"worker.sandbox.forkserver_process" in Path(f"/proc/{pid}/cmdline").read_bytes()


def alive(pid: int | None) -> bool:
    """True while process ``pid`` exists."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
