"""One submission's runs in the sandbox: tree after tree, in as few children as it takes.

A child that ends a tree with its report waits for the next tree's job, so that a
submission graded on several trees pays for one child, not one per tree: each tree still
gets a freshly loaded module (the job carries the source, the child executes it anew), its
own handles, its own wall-clock deadline and its own share of CPU time (read from /proc
while it runs; the child's CPU rlimit covers the whole session as a backstop). A child
that ends a tree any other way (a limit, a crash, a violation) is killed, and the next
tree, if one runs (see :attr:`~worker.sandbox.outcome.SandboxVerdict.ends_run`), gets a new child.
No tree's deadline is later than what is left of the submission's real-time budget.

What a kept child remembers from one tree to the next is the student's own business: it
runs nothing but the student's code and the harness, holds no values but those it was
answered, and the trusted side believes nothing it says without checking it. Callers run
the public trees before the hidden ones, so nothing learned on a hidden tree can come
back in a public tree's output.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import signal
import threading
import time
from typing import TYPE_CHECKING

from worker.harness.host import TreeHost, conclude
from worker.sandbox.bounds import NoteBounds
from worker.sandbox.forkserver import (
    ChildExit,
    ForkServer,
    SandboxUnavailable,
    Spawned,
    process_usage,
)
from worker.sandbox.limits import ChildPlan
from worker.sandbox.options import SandboxOptions
from worker.sandbox.outcome import RunRecord, SandboxOutcome, SandboxVerdict, Usage, decide
from worker.sandbox.protocol import encode_job
from worker.sandbox.treeserver import Ending, Served, TreeServer

if TYPE_CHECKING:
    from reference.exercises.model import Limits
    from reference.tree import Tree
    from worker.harness.results import EntrySpec

log = logging.getLogger(__name__)

_CLOSE_GRACE = 0.5
"""When the child closes its channel, how long it has to end on its own."""
TREES_PER_CHILD = 16
"""The most trees one child searches; a longer session starts another. Sessions of any
length then share one plan (and so one standby child) per exercise limits."""


class Session:
    """Runs one source on trees in turn; :meth:`close` ends the child it may still keep."""

    def __init__(
        self,
        server: ForkServer,
        source: str,
        filename: str,
        limits: Limits,
        options: SandboxOptions,
        *,
        cpu: int | None,
        trees: int,
        budget: float = math.inf,
        decode_seconds: float = math.inf,
    ) -> None:
        self.server = server
        self.source = source
        self.filename = filename
        self.limits = limits
        self.options = options
        self.cpu = cpu
        self.plan = ChildPlan.for_limits(limits, cpu, TREES_PER_CHILD if trees > 1 else 1)
        self.budget_left = budget
        """Seconds of the submission's real-time budget left: the real time its trees'
        searches have taken is taken from it (not the grader's own work between them, nor
        their waits for a CPU on a busy machine); no tree runs past it."""
        self.decode_left = decode_seconds
        """CPU seconds the trusted side may still spend reading values for this submission;
        each tree's own bound is cut to it (see :mod:`worker.sandbox.bounds`)."""
        self._child: Spawned | None = None
        self._child_cpu = 0.0
        """The kept child's CPU seconds when its last tree ended."""
        self._child_trees = 0
        """Trees the kept child has searched."""

    def run(self, tree: Tree, spec: EntrySpec) -> RunRecord:
        """Search ``tree`` with the session's source; never raises for what the student
        does (a fault of the sandbox itself is an ``internal_error`` outcome)."""
        host = TreeHost(tree, request_cap=self.options.request_cap)
        limits = self.limits.for_tree(len(tree))
        started = time.monotonic()
        try:
            for _attempt in range(2):
                served, ended, budget_cut = self._serve(host, spec, limits.cpu_seconds)
                if served.started or served.ending is not Ending.CLOSED:
                    break
                # The child ended while it waited for its job (a standby can be killed by
                # the system): nothing of the student's ran on this tree; once more, with
                # a new child.
                log.warning("a sandbox child ended before its run; running it again")
                host = TreeHost(tree, request_cap=self.options.request_cap)
        except SandboxUnavailable:
            raise
        except Exception as error:
            log.exception("sandboxed run failed")
            self._let_go(release=False)
            wall = int((time.monotonic() - started) * 1000)
            outcome = SandboxOutcome(
                SandboxVerdict.INTERNAL_ERROR, f"the sandbox failed: {error!r}"
            )
            return RunRecord(host.observed, outcome, "", Usage(0, wall, 0))
        wall = int((time.monotonic() - started) * 1000)
        if served.ending is Ending.REPORTED and served.result is not None:
            conclude(host.observed, served.result)
        usage = Usage(int(ended.cpu_seconds * 1000), wall, ended.max_rss_kb)
        output = bytes(served.output).decode("utf-8", "replace")
        truncated = served.output_total > len(served.output)
        outcome = decide(served, ended, limits, budget_cut=budget_cut)
        return RunRecord(host.observed, outcome, output, usage, truncated, served.output_total)

    def close(self) -> None:
        """End the kept child, if any (its usage is already counted)."""
        self._let_go(release=True)

    def _let_go(self, *, release: bool, grace: float = 0.0) -> ChildExit | None:
        """Forget the kept child and end it: released (it has reported; the fork-server
        reaps it later) or reaped now, after ``grace`` seconds to end on its own."""
        child, self._child = self._child, None
        if child is None:
            return None
        try:
            if release:
                return self.server.release(child.pid, self.cpu)
            return self.server.reap(child.pid, grace)
        finally:
            _close(child)

    def _serve(
        self, host: TreeHost, spec: EntrySpec, cpu_limit: float
    ) -> tuple[Served, ChildExit, bool]:
        """Serve one tree to the kept child or a new one; the tree's usage (CPU as a
        difference) with how the child ended, or a live child's state if it reported; and
        whether the tree's deadline was the submission's budget rather than its wall limit."""
        if self._child_trees >= TREES_PER_CHILD:
            self.close()
        fresh = self._child is None
        if self._child is None:
            self._child = self.server.spawn(self.plan)
            self._child_cpu = 0.0
            self._child_trees = 0
        self._child_trees += 1
        child, before = self._child, self._child_cpu
        served = Served(Ending.FAILURE, message="the tree server did not run")
        clock = SchedClock(child.pid)
        # The tree's time counts from here: its child is ready.
        began = time.monotonic()
        own = began + self.limits.wall_seconds
        deadline = min(own, began + self.budget_left)
        stretch = 0.0
        try:
            tree_server = TreeServer(
                host,
                child.requests_fd,
                child.answers_fd,
                spec.entry_points,
                output_limit=self.options.output_limit,
                output_flood=self.options.output_flood,
                bounds=self._bounds(len(host.tree), spec.recursion_limit),
                cpu_used=lambda: _cpu_seconds(child.pid) - before,
                cpu_limit=cpu_limit,
                idle_used=None if self.limits.idle_seconds is None else clock.idle,
                idle_limit=self.limits.idle_seconds or math.inf,
                waited=clock.waited,
                fresh=fresh,
            )
            job = encode_job(self.source, self.filename, spec, host.root_token, host.root_facts())
            served = tree_server.serve(job, deadline)
            self.decode_left -= tree_server.decode_seconds
            stretch = tree_server.deadline_stretch
        finally:
            # Less the time a busy machine kept the child and the grader waiting for a CPU
            # (by which the tree's deadline stretched).
            self.budget_left -= time.monotonic() - began - stretch
            if served.ending is not Ending.REPORTED:
                # The CPU time the limit was checked against (the scheduler's), read while
                # the child is there: what its exit reports (rusage) may count less.
                seen = _cpu_seconds(child.pid)
                grace = _CLOSE_GRACE if served.ending is Ending.CLOSED else 0.0
                ended = self._let_go(release=False, grace=grace)
        budget_cut = deadline < own
        if served.ending is not Ending.REPORTED:
            assert ended is not None
            cpu = max(ended.cpu_seconds, seen)
            if os.WIFSIGNALED(ended.status) and os.WTERMSIG(ended.status) == signal.SIGXCPU:
                # The kernel's CPU limit ended it, which it sends once the child has used
                # that much: what the exit's rusage says may count less (its split between
                # user and system time is sampled), and the child is gone for a last look.
                cpu = max(cpu, float(self.plan.cpu_seconds))
            ended = dataclasses.replace(ended, cpu_seconds=cpu - before)
            return served, ended, budget_cut
        usage = process_usage(child.pid)
        if usage is None:  # it reported, then ended: it cannot take another tree
            self._let_go(release=False)
            usage = (before, 0)
        self._child_cpu = usage[0]
        return served, ChildExit(0, False, usage[0] - before, usage[1]), budget_cut

    def _bounds(self, nodes: int, recursion_limit: int) -> NoteBounds:
        bounds = NoteBounds.for_tree(nodes, recursion_limit)
        if bounds.decode_seconds <= self.decode_left:
            return bounds
        return dataclasses.replace(bounds, decode_seconds=max(self.decode_left, 0.0))


class SchedClock:
    """What the kernel's scheduler accounting (``/proc/<pid>/schedstat``: time on a CPU and
    time waiting in a run queue) says of a child and of the thread serving it (the clock is
    made in that thread), since this clock was made.

    :meth:`idle`: real time less what either of them ran or waited to run: the child's time
    sleeping or blocked on its own. While the child waits for an answer, the serving thread
    is running or waiting to; on a busy machine the child's and the thread's waits for a CPU
    are theirs, not idleness. Both may count at once (two CPUs), which only makes the figure
    smaller.

    :meth:`waited`: their time waiting for a CPU: what a busy machine added to the real time
    the tree took (both may count at once, which only makes the figure larger).

    Both zero when /proc cannot tell."""

    def __init__(self, pid: int) -> None:
        self._child = f"/proc/{pid}/schedstat"
        self._server = f"/proc/self/task/{threading.get_native_id()}/schedstat"
        self._began = time.monotonic()
        self._first = self._read()

    def _read(self) -> tuple[float, float] | None:
        """Seconds the two ran and waited to run, in all."""
        try:
            running = waiting = 0
            for path in (self._child, self._server):
                with open(path, "rb") as stat:
                    ran, waited, _ = stat.read().split()
                running += int(ran)
                waiting += int(waited)
            return running / 1e9, waiting / 1e9
        except (OSError, ValueError):
            return None

    def idle(self) -> float:
        now, first = self._read(), self._first
        if now is None or first is None:
            return 0.0
        busy = (now[0] - first[0]) + (now[1] - first[1])
        return time.monotonic() - self._began - busy

    def waited(self) -> float:
        now, first = self._read(), self._first
        if now is None or first is None:
            return 0.0
        return now[1] - first[1]


def _cpu_seconds(pid: int) -> float:
    usage = process_usage(pid)
    return 0.0 if usage is None else usage[0]


def _close(child: Spawned) -> None:
    os.close(child.answers_fd)
    os.close(child.requests_fd)
