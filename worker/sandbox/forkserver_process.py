"""The fork-server's own process: a fresh ``python -I -S`` that forks one child per run.

Started by :class:`worker.sandbox.forkserver.ForkServer` with an empty environment and only
its control socket open, it holds no secrets: nothing of the grader's memory is in it. It
imports the child's runtime and the modules students may use once, compiles the seccomp
filter once, freezes its heap for the garbage collector (fewer copied pages per fork) and
then answers, one at a time:

``spawn``  (with the child's ends of the two pipes attached) fork a child, reply its pid;
``reap``   kill the child's process group unless it ended within ``grace`` seconds, wait for
           it and reply its exit status and resource usage.

It exits, killing its children, when the control socket closes.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import sys
from typing import Any

from worker.harness.student import EntrySpec, run_student
from worker.harness.values import Described
from worker.sandbox.child import run_child
from worker.sandbox.confinement import Confinement, arrange_fds, confine
from worker.sandbox.limits import ChildPlan, vm_size_bytes
from worker.sandbox.protocol import HEADER, decode_answer, encode_answer, encode_request
from worker.sandbox.reports import encode_call, encode_report, encode_return
from worker.sandbox.seccomp_filter import REQUESTS_FD, Installer, SeccompUnavailable, compile_filter

PRELOADED = (
    "abc",
    "bisect",
    "collections",
    "copy",
    "dataclasses",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "json",
    "math",
    "numbers",
    "operator",
    "random",
    "re",
    "statistics",
    "string",
    "time",
    "typing",
)
"""What a student's module may import (anything else needs open(), which the filter refuses)."""

_MESSAGE = 4096
_ALL_CPUS = os.sched_getaffinity(0)


def main(config: dict[str, Any]) -> None:
    """Run the server with the configuration the grader passed on the command line."""
    control = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET, fileno=config["control_fd"])
    for name in PRELOADED:
        importlib.import_module(name)
    _warm_up()
    confinement, problems = _prepare(config)
    problems += _probe(confinement)
    control.send(json.dumps({"pid": os.getpid(), "problems": problems}).encode())
    sys.stdout.flush()
    sys.stderr.flush()
    gc.collect()
    gc.freeze()
    children: set[int] = set()
    try:
        _serve(control, confinement, children)
    finally:
        for pid in children:
            _kill(pid)
            os.waitpid(pid, 0)


_WARM_UP_SOURCE = """
import math
def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
    return v
def min_value(game, state, alpha, beta):
    return max_value(game, state, alpha, beta)
"""


class _WarmUpBackend:
    """Answers like a one-leaf tree, through the same encoders as the real channel."""

    def request(self, method: str, token: str, argument: str | None) -> object:
        encode_request(method, token, argument)
        answer: object = {"terminal_test": True, "utility": 1, "actions": []}.get(method)
        return decode_answer(method, encode_answer(method, answer)[HEADER:])

    def note_call(self, function: str, token: str | None, *bounds: Described | None) -> None:
        encode_call(function, token or "", *bounds)

    def note_return(self, function: str, token: str | None, value: Described) -> None:
        encode_return(function, token or "", value)


def _warm_up() -> None:
    """Run a search once here, so that every lazily made object (encoders, caches) exists
    before the fork instead of being made again in every child."""
    spec = EntrySpec("alphabeta", ("max_value", "min_value"), "MAX")
    result = run_student(_WARM_UP_SOURCE, "warmup.py", spec, _WarmUpBackend(), "0" * 16)
    encode_report(result)


def _prepare(config: dict[str, Any]) -> tuple[Confinement, list[str]]:
    problems = []
    installer = None
    try:
        installer = Installer(compile_filter(config.get("seccomp_binding")))
    except (SeccompUnavailable, OSError) as error:
        problems.append(f"no seccomp filter: {error}")
    user = None
    if os.geteuid() == 0:
        user = (int(config["uid"]), int(config["gid"]))
    else:
        problems.append("not started as root: cannot switch the student's process to another user")
    return Confinement(user, installer, vm_size_bytes(), os.getpid()), problems


def _probe(confinement: Confinement) -> list[str]:
    """Confine a throwaway child to learn whether the kernel accepts every step."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            arrange_fds(os.dup(0), write_end)
            confine(confinement, ChildPlan(cpu_seconds=1, memory_mb=16))
            if confinement.installer is not None:
                try:
                    os.getcwd()
                    os.write(REQUESTS_FD, b"the seccomp filter did not refuse getcwd()")
                    os._exit(0)
                except PermissionError:
                    pass
            os.write(REQUESTS_FD, b"ok")
        except BaseException as error:
            os.write(REQUESTS_FD, repr(error).encode()[:1000])
        os._exit(0)
    os.close(write_end)
    answer = os.read(read_end, _MESSAGE)
    os.close(read_end)
    os.waitpid(pid, 0)
    return [] if answer == b"ok" else [f"confining a test process failed: {answer.decode()}"]


def _serve(control: socket.socket, confinement: Confinement, children: set[int]) -> None:
    while True:
        message, fds, _flags, _address = socket.recv_fds(control, _MESSAGE, 2)
        if not message:
            return
        request = json.loads(message)
        if request["op"] == "spawn" and len(fds) == 2:
            plan = ChildPlan.from_wire(request["plan"])
            reply: dict[str, Any] = {"pid": _spawn(confinement, plan, fds[0], fds[1])}
            children.add(reply["pid"])
        elif request["op"] == "reap" and request.get("pid") in children:
            for fd in fds:
                os.close(fd)
            reply = _reap(request["pid"], float(request.get("grace", 0)))
            children.discard(request["pid"])
        else:
            for fd in fds:
                os.close(fd)
            reply = {"error": f"bad request {request.get('op')!r}"}
        control.send(json.dumps(reply).encode())


def _spawn(confinement: Confinement, plan: ChildPlan, answers_fd: int, requests_fd: int) -> int:
    wanted = _ALL_CPUS if plan.cpu is None else {plan.cpu}
    if os.sched_getaffinity(0) != wanted:
        # Fork on the CPU the child will run on: waking a new task on another (idle) CPU
        # costs milliseconds on virtual machines.
        os.sched_setaffinity(0, wanted)
    pid = os.fork()
    if pid == 0:
        try:
            run_child(confinement, plan, answers_fd, requests_fd)
        finally:
            os._exit(0)
    os.close(answers_fd)
    os.close(requests_fd)
    with contextlib.suppress(OSError):  # the child does it too: whichever runs first
        os.setpgid(pid, pid)
    return pid


def _reap(pid: int, grace: float) -> dict[str, Any]:
    killed = False
    if grace > 0:
        _wait_for_exit(pid, grace)
    waited, status, usage = os.wait4(pid, os.WNOHANG)
    if waited == 0:
        killed = True
        _kill(pid)
        waited, status, usage = os.wait4(pid, 0)
    return {
        "status": status,
        "killed": killed,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "max_rss_kb": usage.ru_maxrss,
    }


def _wait_for_exit(pid: int, grace: float) -> None:
    descriptor = os.pidfd_open(pid)
    try:
        poller = select.poll()
        poller.register(descriptor, select.POLLIN)
        poller.poll(grace * 1000)
    finally:
        os.close(descriptor)


def _kill(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(OSError):
            kill(pid, signal.SIGKILL)
