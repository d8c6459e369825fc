"""One sandboxed run: a student's module searching one tree in a confined child process."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from reference.tree import Tree
from worker.harness.host import TreeHost, conclude
from worker.harness.student import EntrySpec
from worker.sandbox.forkserver import ChildExit, ForkServer, SandboxUnavailable, shared_forkserver
from worker.sandbox.limits import ChildPlan
from worker.sandbox.options import SandboxOptions
from worker.sandbox.outcome import Outcome, RunRecord, Usage, Verdict, decide
from worker.sandbox.protocol import encode_job
from worker.sandbox.treeserver import Ending, Served, TreeServer

if TYPE_CHECKING:
    from reference.exercises.model import Limits

log = logging.getLogger(__name__)

_CLOSE_GRACE = 0.5
"""When the child closes its channel, how long it has to end on its own."""


def run_sandboxed(
    tree: Tree,
    source: str,
    filename: str,
    spec: EntrySpec,
    limits: Limits,
    *,
    options: SandboxOptions | None = None,
) -> RunRecord:
    """Run the student's ``source`` on ``tree`` in a confined process and record what it did.

    Raises :class:`SandboxUnavailable` when this machine cannot confine students' code (and
    ``options.allow_unconfined`` is not set). Every other failure of the sandbox itself is
    reported as an ``internal_error`` outcome, never as the student's.
    """
    options = options or SandboxOptions()
    server = options.forkserver or shared_forkserver(allow_unconfined=options.allow_unconfined)
    host = TreeHost(tree, request_cap=options.request_cap)
    started = time.monotonic()
    try:
        with _pinned(options.pin_cpu) as cpu:
            for _attempt in range(2):
                served, child = _run(server, host, source, filename, spec, limits, options, cpu)
                if served.started or served.ending is not Ending.CLOSED:
                    break
                # The child ended while it waited for its job (a standby can be killed
                # by the system): nothing of the student's ran; once more, with another.
                log.warning("a sandbox child ended before its run; running it again")
    except SandboxUnavailable:
        raise
    except Exception as error:
        log.exception("sandboxed run failed")
        wall = int((time.monotonic() - started) * 1000)
        outcome = Outcome(Verdict.INTERNAL_ERROR, f"the sandbox failed: {error!r}")
        return RunRecord(host.observed, outcome, "", Usage(0, wall, 0))
    wall = int((time.monotonic() - started) * 1000)
    if served.ending is Ending.REPORTED and served.result is not None:
        conclude(host.observed, served.result)
    usage = Usage(int(child.cpu_seconds * 1000), wall, child.max_rss_kb)
    output = bytes(served.output).decode("utf-8", "replace")
    truncated = served.output_total > len(served.output)
    return RunRecord(host.observed, decide(served, child, limits), output, usage, truncated)


def _run(
    server: ForkServer,
    host: TreeHost,
    source: str,
    filename: str,
    spec: EntrySpec,
    limits: Limits,
    options: SandboxOptions,
    cpu: int | None,
) -> tuple[Served, ChildExit]:
    # An honest search notes a call and a return per game request at most, plus the calls
    # of a runaway recursion until it hits the recursion limit (then RecursionError).
    deadline = time.monotonic() + limits.wall_seconds
    child = server.spawn(ChildPlan.for_limits(limits, cpu))
    try:
        served = Served(Ending.FAILURE, message="the tree server did not run")
        try:
            tree_server = TreeServer(
                host,
                child.requests_fd,
                child.answers_fd,
                spec.entry_points,
                output_limit=options.output_limit,
                output_flood=options.output_flood,
                note_cap=2 * host.request_cap + 2 * spec.recursion_limit,
            )
            job = encode_job(source, filename, spec, host.root_token, host.root_facts())
            served = tree_server.serve(job, deadline)
        finally:
            if served.ending is Ending.REPORTED:
                ended = server.release(child.pid, cpu)
            else:
                grace = _CLOSE_GRACE if served.ending is Ending.CLOSED else 0.0
                ended = server.reap(child.pid, grace)
        return served, ended
    finally:
        os.close(child.answers_fd)
        os.close(child.requests_fd)


@contextmanager
def _pinned(enabled: bool) -> Iterator[int | None]:
    """Pin the calling thread to one of its CPUs for the run; yields that CPU (or None)."""
    if not enabled:
        yield None
        return
    previous = os.sched_getaffinity(0)
    cpus = sorted(previous)
    # Threads of one worker spread over the CPUs; each run stays on one.
    cpu = cpus[threading.get_native_id() % len(cpus)]
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, previous)
