"""Sandboxed runs: a student's module searching trees in confined child processes."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from reference.observed import Observed
from worker.sandbox.bounds import submission_decode_seconds
from worker.sandbox.compiled import compile_check
from worker.sandbox.forkserver import shared_forkserver
from worker.sandbox.importable import preload_for
from worker.sandbox.options import SandboxOptions
from worker.sandbox.outcome import RunRecord, Usage
from worker.sandbox.session import Session

if TYPE_CHECKING:
    from reference.exercises.model import Limits
    from reference.tree import Tree
    from worker.harness.results import EntrySpec


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
    return run_sandboxed_trees([(tree, spec)], source, filename, limits, options=options)[0]


def run_sandboxed_trees(
    runs: Sequence[tuple[Tree, EntrySpec]],
    source: str,
    filename: str,
    limits: Limits,
    *,
    options: SandboxOptions | None = None,
) -> list[RunRecord]:
    """Run ``source`` on each ``(tree, spec)`` in turn, each tree with a freshly loaded
    module and its own limits (see :mod:`worker.sandbox.session`); one record per tree run,
    in order. Raises :class:`SandboxUnavailable` as :func:`run_sandboxed` does.

    The list is shorter than ``runs`` when the submission stopped early:

    - a file that does not compile (decided here, :func:`compile_check`) gives one
      ``compile_error`` record and no child runs;
    - after a tree ends with a verdict that ends the run
      (:attr:`~worker.sandbox.outcome.SandboxVerdict.ends_run`), no other tree runs (the
      last record has that verdict);
    - the whole submission's searches have ``limits.submission_budget`` seconds of real
      time (counted over its trees' searches, less their waits for a CPU: not the grader's
      start, nor its work between trees): each tree gets what is left of it when that is
      less than its own wall limit (a tree cut short so ends as ``time_limit``, its message
      naming the budget), and once it is spent no further tree runs (the last record then
      has a verdict that does not stop);
    - reading the values the child reports may cost the trusted side one allowance for the
      whole submission (:func:`~worker.sandbox.bounds.submission_decode_seconds`), not one
      per tree: past it, the tree ends as ``protocol_violation``.
    """
    if not runs:
        return []
    wrong = compile_check(source, filename)
    if wrong is not None:
        return [RunRecord(Observed(), wrong, "", Usage(0, 0, 0))]
    options = options or SandboxOptions()
    server = options.forkserver or shared_forkserver(
        allow_unconfined=options.allow_unconfined, preload=preload_for(source)
    )
    records: list[RunRecord] = []
    with _pinned(options.pin_cpu) as cpu:
        session = Session(
            server,
            source,
            filename,
            limits,
            options,
            cpu=cpu,
            trees=len(runs),
            budget=limits.submission_budget,
            decode_seconds=submission_decode_seconds(sum(len(tree) for tree, _ in runs)),
        )
        try:
            for tree, spec in runs:
                if records and session.budget_left <= 0:
                    break
                record = session.run(tree, spec)
                records.append(record)
                if record.outcome.verdict.ends_run:
                    break
        finally:
            session.close()
    return records


@contextmanager
def _pinned(enabled: bool) -> Iterator[int | None]:
    """Pin the calling thread to one of its CPUs for the runs; yields that CPU (or None)."""
    if not enabled:
        yield None
        return
    previous = os.sched_getaffinity(0)
    cpus = sorted(previous)
    # Stay on the CPU the scheduler last ran this thread on: it spreads busy threads (of
    # this process and of other workers) over the CPUs better than any fixed choice.
    cpu = current_cpu()
    if cpu not in previous:
        cpu = cpus[threading.get_native_id() % len(cpus)]
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, previous)


def current_cpu() -> int | None:
    """The CPU the calling thread last ran on (from /proc), or None if /proc cannot tell."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[36])  # field 39 of stat(5), "processor"; fields[0] is field 3
    except (OSError, IndexError, ValueError):
        return None
