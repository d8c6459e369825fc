"""Where a game call's time goes: the same round trip built up step by step, between two
processes pinned to one CPU, as bench/sandbox_roundtrip.py's game call makes it (a child
asking ``game.actions`` of the same state over and over, the trusted side answering).

1. bare pipes: both processes only ``os.write`` and ``os.read`` the messages the call sends
   (the request, and the answer the trusted side gives to a request asked before);
2. the same, the child under the sandbox's seccomp filter;
3. the trusted side's real serving loop (``TreeServer`` and its ``TreeHost``), the child
   still bare;
4. the child's real game call (``RemoteGame`` and ``RemoteBackend``), the trusted side bare;
5. both real: the call without the rest of the sandbox (no fork-server, no user change, no
   rlimits, no student module).

Each line gives the wall time per call and the CPU time per call of each process (the
trusted thread's ``thread_time``; the child's rusage). Steps are measured in turn, rounds
of each, and their medians printed. Must run as root (seccomp needs no root, but the
filter is the fork-server's, compiled the same way).

Usage: .venv/bin/python bench/call_floor.py [--calls 20000] [--rounds 7] [--baseline REV]
``--baseline REV`` measures the same with the code of commit ``REV`` (a temporary git
worktree of it; this script run with ``PYTHONPATH`` pointing at it), printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import baseline  # the sibling script's: bench/ is on the path when run

from reference.treefile import parse_compact
from worker.harness.game import State
from worker.harness.host import TreeHost
from worker.sandbox.bounds import NoteBounds
from worker.sandbox.child import RemoteBackend, RemoteGame
from worker.sandbox.protocol import encode_request, frame
from worker.sandbox.seccomp_filter import ANSWERS_FD, REQUESTS_FD, Installer, compile_filter
from worker.sandbox.treeserver import TreeServer

ROOT = Path(__file__).resolve().parents[1]
FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"
STEPS = (
    ("bare pipes", False, False, False),
    ("+ seccomp in the child", True, False, False),
    ("+ the trusted side's loop", True, True, False),
    ("+ the child's game call, bare trusted side", True, False, True),
    ("both real", True, True, True),
)
"""(label, seccomp in the child, the real trusted side, the real child)."""


def fresh_host() -> TreeHost:
    return TreeHost(parse_compact(FIG52), request_cap=1 << 40)


def answer_again(host: TreeHost) -> bytes:
    """The framed answer the trusted side gives to ``actions`` of the root asked a second
    time (what a bare trusted side sends), read from a real serving loop."""
    requests_in, requests_out = os.pipe()
    answers_in, answers_out = os.pipe()
    request = frame(encode_request("actions", host.root_token, None))
    answers: list[bytes] = []

    def child() -> None:
        os.read(answers_in, 1 << 16)  # the job
        for _ in range(2):
            os.write(requests_out, request)
            answers.append(os.read(answers_in, 1 << 16))
        os.close(requests_out)

    thread = threading.Thread(target=child)
    thread.start()
    server = TreeServer(
        host,
        requests_in,
        answers_out,
        ("max_value", "min_value"),
        output_limit=1 << 16,
        output_flood=1 << 23,
        bounds=NoteBounds.for_tree(len(host.tree), 10_000),
    )
    server.serve(frame(b"job"), time.monotonic() + 10)
    thread.join()
    for fd in (requests_in, answers_in, answers_out):
        os.close(fd)
    return answers[1]


def measure(
    calls: int, installer: Installer, seccomp: bool, real_server: bool, real_child: bool
) -> tuple[float, float, float]:
    """(wall, trusted CPU, child CPU) seconds per call of one step."""
    host = fresh_host()
    again = answer_again(fresh_host())
    request = frame(encode_request("actions", host.root_token, None))
    answers_in, answers_out = os.pipe()
    requests_in, requests_out = os.pipe()
    previous = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(previous)})
    try:
        pid = os.fork()
        if pid == 0:
            try:
                os.dup2(answers_in, ANSWERS_FD)
                os.dup2(requests_out, REQUESTS_FD)
                if seccomp:
                    installer.install()
                os.read(ANSWERS_FD, 1 << 16)  # the job
                if real_child:
                    game = RemoteGame(RemoteBackend(host.root_facts()))
                    state = State(host.root_token, game)
                    for _ in range(calls):
                        game.actions(state)
                else:
                    for _ in range(calls):
                        os.write(REQUESTS_FD, request)
                        os.read(ANSWERS_FD, 1 << 16)
            finally:
                os._exit(0)
        os.close(answers_in)
        os.close(requests_out)
        cpu, start = time.thread_time(), time.perf_counter()
        if real_server:
            server = TreeServer(
                host,
                requests_in,
                answers_out,
                ("max_value", "min_value"),
                output_limit=1 << 16,
                output_flood=1 << 23,
                bounds=NoteBounds.for_tree(len(host.tree), 10_000),
            )
            server.serve(frame(b"job"), time.monotonic() + 600)
        else:
            os.write(answers_out, frame(b"job"))
            for _ in range(calls):
                os.read(requests_in, 1 << 16)
                os.write(answers_out, again)
        wall, cpu = time.perf_counter() - start, time.thread_time() - cpu
        _, _, usage = os.wait4(pid, 0)
    finally:
        os.sched_setaffinity(0, previous)
        for fd in (answers_out, requests_in):
            os.close(fd)
    return wall / calls, cpu / calls, (usage.ru_utime + usage.ru_stime) / calls


def measure_all(calls: int, rounds: int) -> dict[str, list[float]]:
    installer = Installer(compile_filter())
    found: dict[str, list[tuple[float, float, float]]] = {label: [] for label, *_ in STEPS}
    for _ in range(rounds):
        for label, seccomp, real_server, real_child in STEPS:
            found[label].append(measure(calls, installer, seccomp, real_server, real_child))
    return {
        label: [statistics.median(column) for column in zip(*rows, strict=True)]
        for label, rows in found.items()
    }


def at_commit(revision: str, argv: list[str]) -> dict[str, Any]:
    """The figures of commit ``revision``'s code (this script in a temporary worktree)."""
    return dict(baseline.at_commit(revision, __file__, [*argv, "--json"]))


def report(label: str, figures: dict[str, list[float]]) -> None:
    print(f"--- {label}")
    print(f"{'step':>44} {'us/call':>8} {'x bare':>7} {'trusted cpu':>12} {'child cpu':>10}")
    bare = figures[STEPS[0][0]][0]
    for step, (wall, trusted, child) in figures.items():
        print(
            f"{step:>44} {wall * 1e6:>8.2f} {wall / bare:>7.2f} "
            f"{trusted * 1e6:>12.2f} {child * 1e6:>10.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure_all(args.calls, args.rounds)))
        return
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    argv = ["--calls", str(args.calls), "--rounds", str(args.rounds)]
    before = at_commit(args.baseline, argv) if args.baseline else None
    this = measure_all(args.calls, args.rounds)
    if before is not None:
        report(f"baseline {args.baseline}", before)
    report("this checkout", this)


if __name__ == "__main__":
    main()
