"""The fork-server's own process: a fresh ``python -I -S`` that forks one child per run.

Started by :class:`worker.sandbox.forkserver.ForkServer` with an empty environment and only
its control socket open, it holds no secrets: nothing of the grader's memory is in it. It
imports the child's runtime and the modules students may use once, compiles the seccomp
filter once, freezes its heap for the garbage collector (fewer copied pages per fork) and
then answers, one at a time:

``spawn``    fork a child confined for the run's plan (limits and CPU), reply its pid with
             the grader's ends of its two pipes attached; then send a standby (``next``);
``next``     (no reply) fork a child for the plan and send it ahead of its run, unasked:
             a message ``ready`` with the pipes attached, which the grader keeps;
``reap``     kill the child's process group unless it ended within ``grace`` seconds, wait
             for it and reply its exit status and resource usage;
``release``  (no reply) the grader has killed a child that reported, or drops a standby:
             kill its group, reap it once it ends;
``settle``   reap every released child, then reply.

So the grader has the next run's child (a *standby*) before it asks: it confines itself
(:mod:`worker.sandbox.confinement`) while the grader serves the current run, and a run with
the same plan waits for neither a fork, nor the confinement, nor this process, nor a
child's exit.
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

from worker.sandbox.child import run_child
from worker.sandbox.confinement import Confinement, arrange_fds, confine
from worker.sandbox.importable import PRELOADED
from worker.sandbox.limits import ChildPlan, vm_size_bytes
from worker.sandbox.seccomp_filter import (
    REQUESTS_FD,
    Installer,
    SeccompUnavailable,
    compile_filter,
)
from worker.sandbox.warmup import warm_up

_MESSAGE = 4096
_ALL_CPUS = os.sched_getaffinity(0)


def main(config: dict[str, Any]) -> None:
    """Run the server with the configuration the grader passed on the command line."""
    control = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET, fileno=config["control_fd"])
    default_signals()
    for name in config.get("preload", PRELOADED):
        importlib.import_module(name)
    for name in config.get("unset_after_preload", ()):
        os.environ.pop(name, None)
    warm_up()
    confinement, problems = _prepare(config)
    problems += _probe(confinement)
    control.send(json.dumps({"pid": os.getpid(), "problems": problems}).encode())
    sys.stdout.flush()
    sys.stderr.flush()
    gc.collect()
    gc.freeze()
    server = _Server(control, confinement)
    try:
        server.serve()
    finally:
        server.close()


def default_signals() -> None:
    """Give back their default action to the signals this process was started ignoring
    (a worker started under ``nohup`` or in a shell's background ignores SIGHUP and
    SIGQUIT, and an ignored signal stays ignored across ``exec``), so that every child
    meets a signal alike however its worker was started. SIGPIPE stays as Python sets it:
    a write to a closed pipe raises rather than kills."""
    for number in signal.valid_signals():
        if number in (signal.SIGKILL, signal.SIGSTOP, signal.SIGPIPE):
            continue
        with contextlib.suppress(OSError, ValueError):
            if signal.getsignal(number) is signal.SIG_IGN:
                signal.signal(number, signal.SIG_DFL)


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
            confine(confinement, ChildPlan(cpu_seconds=1, memory_mb=16, cpu=min(_ALL_CPUS)))
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


def _keep_off(cpu: int | None) -> None:
    """Run this process, and so the start of the next child, on the CPUs other than the
    grader's: forking and confining then do not compete with the grader's current run (the
    child moves itself to the grader's CPU last, see :mod:`worker.sandbox.confinement`)."""
    others = _ALL_CPUS - {cpu} or _ALL_CPUS
    if os.sched_getaffinity(0) != others:
        os.sched_setaffinity(0, others)


def _fork_child(confinement: Confinement, plan: ChildPlan) -> tuple[int, int, int]:
    """Fork a child that confines itself for ``plan`` and waits for its job; its pid and
    the grader's ends of its pipes (answers to write, requests to read)."""
    answers_in, answers_out = os.pipe()
    requests_in, requests_out = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            run_child(confinement, plan, answers_in, requests_out)
        finally:
            os._exit(0)
    os.close(answers_in)
    os.close(requests_out)
    with contextlib.suppress(OSError):  # the child does it too: whichever runs first
        os.setpgid(pid, pid)
    return pid, answers_out, requests_in


class _Server:
    """The serving loop's state: the children handed out (running or standing by in the
    grader) and those released (killed by the grader, waiting to be reaped here)."""

    def __init__(self, control: socket.socket, confinement: Confinement) -> None:
        self.control = control
        self.confinement = confinement
        self.children: set[int] = set()
        self.dying: dict[int, int] = {}
        """pidfd -> pid of released children."""
        self.poller = select.poll()
        self.poller.register(control, select.POLLIN)

    def serve(self) -> None:
        """Answer requests until the control socket closes."""
        while True:
            for fd, _event in self.poller.poll():
                if fd in self.dying:
                    self._bury(fd)
                elif not self._handle():
                    return

    def _handle(self) -> bool:
        message, fds, _flags, _address = socket.recv_fds(self.control, _MESSAGE, 2)
        for fd in fds:
            os.close(fd)
        if not message:
            return False
        request = json.loads(message)
        op, pid = request.get("op"), request.get("pid")
        if op in ("spawn", "next"):
            plan = ChildPlan.from_wire(request["plan"])
            if op == "spawn":
                self._hand_out(plan, "pid")
            # The next run's child confines itself while the grader serves this one.
            self._hand_out(plan, "ready")
            return True
        if op == "release" and pid in self.children:
            self._release(pid)
            return True  # no reply: the grader does not wait for it
        if op == "reap" and pid in self.children:
            reply = _reap(pid, float(request.get("grace", 0)))
            self.children.discard(pid)
        elif op == "settle":
            for descriptor in list(self.dying):
                self._bury(descriptor)
            reply = {"settled": True}
        else:
            reply = {"error": f"bad request {op!r}"}
        self.control.send(json.dumps(reply).encode())
        return True

    def _hand_out(self, plan: ChildPlan, key: str) -> None:
        """Fork a child for ``plan`` and send it: as the reply (``pid``) or ahead of time
        (``ready``)."""
        _keep_off(plan.cpu)
        pid, answers_fd, requests_fd = _fork_child(self.confinement, plan)
        self.children.add(pid)
        message = json.dumps({key: pid, "plan": plan.to_wire()}).encode()
        try:
            socket.send_fds(self.control, [message], [answers_fd, requests_fd])
        finally:
            os.close(answers_fd)
            os.close(requests_fd)

    def _release(self, pid: int) -> None:
        """The grader has read the child's usage and killed its group: reap it once it ends."""
        self.children.discard(pid)
        _kill(pid)
        try:
            descriptor = os.pidfd_open(pid)
        except OSError:
            os.waitpid(pid, 0)
            return
        self.dying[descriptor] = pid
        self.poller.register(descriptor, select.POLLIN)

    def _bury(self, descriptor: int) -> None:
        pid = self.dying.pop(descriptor)
        self.poller.unregister(descriptor)
        os.close(descriptor)
        os.waitpid(pid, 0)

    def close(self) -> None:
        """Kill and reap every child: handed out (running or standing by) and released."""
        for pid in self.children:
            _kill(pid)
            os.waitpid(pid, 0)
        for descriptor in list(self.dying):
            self._bury(descriptor)


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
