"""Executing one grading run: claim it, grade the submission in the sandbox, store the result.

A plain function under the Celery task. Safe to call however many times a run's task
reaches a worker: each call claims the run, a finished run is left alone and a run claimed
too often ends as ``internal_error``.

A failure of ours never leaves a run ``running`` nor is blamed on the student: when the
grading raises, when the sandbox itself fails on a tree (the report's verdict is
``internal_error``) or when the result cannot be stored, the run goes back to the queue
and its task is sent again, up to ``max_run_attempts`` claims in all; then it ends
as ``internal_error``, which does not count as an attempt. If even that cannot be
written because the database cannot be reached, the error goes up to the task, which is
tried again later (the run stays ``running`` and its next claim grades it again).

Each step is one unit of work: a ``Database.session()`` block commits what the services of
:mod:`grader.services.runs` changed, and the tasks they hand to the queue (the run sent
again, the outbound deliveries of a finished run) are sent after that commit, by the
session's own hook, never before it and never after a rollback.

A run in the fast lane is graded with at most ``FAST_LANE_CPU_SECONDS`` of CPU time per
tree (less on a small tree: ``FAST_LANE_CPU_BY_SIZE``), ``FAST_LANE_MEMORY_MB`` of memory,
``FAST_LANE_IDLE_SECONDS`` of real time spent neither computing nor waiting (sleeping,
blocked) per tree and ``FAST_LANE_SECONDS`` of real time for the whole submission. When
its submission hits a limit of time or memory there, it gets no verdict: it goes to the slow
lane, where it is graded again with the exercise's own limits (and
``SLOW_LANE_IDLE_SECONDS`` of idleness per tree). A correct submission needs a few
milliseconds of CPU per tree, so this is rare for them, and the slow or hostile ones hold a
fast-lane worker for a short while only.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError

from grader.config import Settings
from grader.db import Database
from grader.logs import bind
from grader.models import ExerciseVersion
from grader.models.submissions import Lane
from grader.services.exercise_store import load_version, materialize
from grader.services.hidden_keys import exercise_key
from grader.services.queue import Queue
from grader.services.runs import (
    Claim,
    earlier_draw,
    finish_run,
    move_to_slow_lane,
    retry_run,
    start_run,
)
from reference.caching import IdentityCache
from reference.diagnosis.suspects import AddedSuspect
from reference.exercises.model import Exercise
from reference.report import Report, RunVerdict
from worker.added_suspects import AddedBudget, added_suspects
from worker.grading import grade
from worker.sandbox import SandboxOptions
from worker.sandbox.importable import preload_for
from worker.trees import Draw, Prepared, prepared

log = logging.getLogger(__name__)

FAST_LANE_CPU_SECONDS = 0.1
"""CPU time a fast-lane run's search may spend on one tree at most. CPU time rather than
real time, so that a busy machine does not send correct submissions to the slow lane."""
FAST_LANE_CPU_BY_SIZE = (0.02, 0.0001)
"""Within that: 20 ms of CPU, plus 0.1 ms per node of the tree (a correct search of the
library spends at most 6 ms on a tree of 586 nodes, about 10 µs a node, and a few on the
smallest): an infinite loop on a small tree costs the fast lane a fifth of the flat limit."""
FAST_LANE_SECONDS = 3.0
"""Real time a fast-lane run's searches may spend on all the trees of its submission, less
their waits for a CPU: a backstop, the CPU and idle limits bound a search's own time (a
correct submission's nine trees take about 50 ms on a quiet machine; at load 9, with the
fast lane's processes weighed as one session among six spinning ones, up to a second)."""
FAST_LANE_IDLE_SECONDS = 0.2
"""Real time a fast-lane run's search may spend on one tree neither computing nor waiting
for a CPU or for the grader (sleeping, blocked): a correct search spends none, and one that
sleeps leaves the fast lane after this long rather than after its real-time budget. Read
from the scheduler's accounting, so a busy machine does not count as idleness."""
SLOW_LANE_IDLE_SECONDS = 2.0
"""The same for a slow-lane run: a search that sleeps or blocks holds one of the slow lane's
few slots (as many as CPUs) for this long, not for the exercise's wall limit."""
FAST_LANE_MEMORY_MB = 64
"""Memory a fast-lane run's search may use (a correct search needs a few megabytes; filling
the exercise's whole allowance costs a tenth of a second or more of the kernel's time)."""


@dataclass(frozen=True, slots=True)
class Job:
    """What grading one run needs, read from the database when the run is claimed."""

    claim: Claim
    """This task's claim on the run."""
    submission_id: int
    slug: str
    version: ExerciseVersion
    """Detached from its session: its files are materialized before it is graded."""
    key: bytes
    """The exercise's hidden-tree key (its course's and its own)."""
    source: str
    filename: str
    fast: bool
    public_only: bool
    """A check of a draft: graded on the public trees only, no hidden tree is drawn."""
    draw: str | None = None
    """The draw an earlier grading of the same submission against the same version took
    (a regrade draws the same hidden trees); None: take a new one."""

    @property
    def draws(self) -> str:
        """What this job's draws are named under (the exercise version's name)."""
        return f"version-{self.version.content_hash}"

    @property
    def run_id(self) -> int:
        return self.claim.run_id


def execute_run(
    database: Database,
    settings: Settings,
    run_id: int,
    *,
    worker: str = "eager",
    task_id: str = "eager",
) -> str:
    """Grade run ``run_id``; what happened, in a word (graded, skipped, discarded, retried,
    error). The worker and task default to this process (tasks done eagerly)."""
    with database.session() as session:
        start = start_run(session, settings, _queue(settings, database), run_id, worker, task_id)
        run, claim = start.run, start.claim
        if run is None or claim is None:
            log.info("run %s not graded: %s", run_id, start.reason)
            return "skipped"
        submission, version = run.submission, run.version
        job = Job(
            claim=claim,
            submission_id=submission.id,
            slug=version.exercise.slug,
            version=version,
            key=exercise_key(settings, version.exercise),
            source=submission.source,
            filename=submission.filename,
            fast=run.lane == Lane.FAST,
            public_only=submission.is_check,
            draw=None if submission.is_check else earlier_draw(session, run),
        )
        materialize(settings, job.slug, version)  # its files are read here, if ever
        session.expunge(version)
    with bind(submission_id=job.submission_id):
        return _grade_and_store(database, settings, job)


def _grade_and_store(database: Database, settings: Settings, job: Job) -> str:
    began = time.perf_counter()
    options = SandboxOptions(allow_unconfined=settings.sandbox_allow_unconfined)
    # The instructors' added implementations are paid from their course's budget, and
    # never in the fast lane, which every course shares (see worker.added_suspects).
    budget = AddedBudget(0.0 if job.fast else settings.added_seconds_per_grading)
    try:
        model = load_version(settings, job.slug, job.version)
        added = _added(database, job.version, model, options, budget)
        model = _fast_lane(model, job.source, options) if job.fast else _slow_lane(model)
        ready = prepared(model, job.key, settings.exercises_dir)
        # A regrade of the same submission against the same exercise version gets the
        # same hidden trees; any other grading a draw of its own, ready if one is.
        draw = None if job.public_only else job.draw or ready.take(job.draws)
        report = grade(
            model,
            job.source,
            job.filename,
            key=job.key,
            exercises_dir=settings.exercises_dir,
            options=options,
            draw=draw or "",
            public_only=job.public_only,
            added=added,
        )
    except Exception as error:
        log.exception("run %s: internal error while grading", job.run_id)
        what = f"the grader raised {type(error).__name__}"
    else:
        if job.fast and _hit_a_limit(report):
            return _to_slow_lane(database, settings, job, _limit_reason(report), began)
        if job.fast and budget.wanted:
            why = "its diagnosis compares it with an implementation its instructors added"
            return _to_slow_lane(database, settings, job, why, began)
        graded = _store(database, settings, job, report, began, _name(draw))
        if not job.public_only:
            _stock_up(ready, job)
        return graded
    # Out of the except clause: sending the run again may grade it here (eager tasks).
    return _retry(database, settings, job, what)


def _added(
    database: Database,
    version: ExerciseVersion,
    model: Exercise,
    options: SandboxOptions,
    budget: AddedBudget,
) -> list[AddedSuspect]:
    """The wrong implementations the exercise's instructors added, as the diagnosis's
    suspects; none when they cannot be read (a diagnosis is a help, not the grade)."""
    try:
        with database.session() as session:
            return added_suspects(session, version.exercise, version, model, options, budget)
    except Exception:
        log.exception("the added implementations of %s were not read", version.exercise_id)
        return []


_BROKERS: dict[str, Any] = {}
"""One Celery app per broker in this process: making one for each message sent cost a
new app and a new connection to the broker each time."""


def _queue(settings: Settings, database: Database) -> Queue:
    """The way to the workers, on this process's app for the settings' broker."""
    queue = Queue(settings, database, _BROKERS.get(settings.broker_url))
    if not settings.eager_tasks:
        _BROKERS.setdefault(settings.broker_url, queue.celery)
    return queue


def _fast_lane(model: Exercise, source: str, options: SandboxOptions) -> Exercise:
    """``model`` with the fast lane's budget; the fork-server that will run ``source`` is
    started first, so that its start is not taken from the budget."""
    from worker.sandbox.forkserver import shared_forkserver

    shared_forkserver(allow_unconfined=options.allow_unconfined, preload=preload_for(source))
    # One fast-lane exercise per exercise: what the grading keeps per exercise object (its
    # prepared trees and hidden-tree pool, the diagnosis's signatures) is then made once.
    return _fast_models.get(lambda: _with_fast_limits(model), model)


_fast_models: IdentityCache[Exercise] = IdentityCache(64)


def _slow_lane(model: Exercise) -> Exercise:
    """``model`` with the slow lane's idle limit (the exercise's own limits otherwise)."""
    return _slow_models.get(lambda: _with_slow_limits(model), model)


_slow_models: IdentityCache[Exercise] = IdentityCache(64)


def _with_slow_limits(model: Exercise) -> Exercise:
    return replace(model, limits=replace(model.limits, idle_seconds=SLOW_LANE_IDLE_SECONDS))


def _with_fast_limits(model: Exercise) -> Exercise:
    limits = model.limits
    fast = replace(
        limits,
        cpu_seconds=min(limits.cpu_seconds, FAST_LANE_CPU_SECONDS),
        cpu_seconds_by_size=FAST_LANE_CPU_BY_SIZE,
        memory_mb=min(limits.memory_mb, FAST_LANE_MEMORY_MB),
        submission_wall_seconds=min(limits.submission_budget, FAST_LANE_SECONDS),
        idle_seconds=FAST_LANE_IDLE_SECONDS,
    )
    return replace(model, limits=fast)


def _hit_a_limit(report: Report) -> bool:
    """Whether a tree of the report hit a limit of time or memory (or the budget ran out)."""
    # A limit verdict may differ with more time (or another machine's load): such a
    # fast-lane run is graded again in the slow lane.
    return report.verdict.is_limit or any(case.verdict.is_limit for case in report.cases)


def _limit_reason(report: Report) -> str:
    """The limit a fast-lane run hit, as its log says it: the verdict and, from the first
    tree that hit one, which limit ("time_limit (tree hidden-3: your code used more than
    0.02 s of CPU time)")."""
    case = next((case for case in report.cases if case.verdict.is_limit), None)
    if case is None:
        return str(report.verdict)
    return f"{report.verdict} (tree {case.name}: {case.message})"


def _to_slow_lane(database: Database, settings: Settings, job: Job, why: str, began: float) -> str:
    with database.session() as session:
        moved = move_to_slow_lane(session, _queue(settings, database), job.claim)
    if not moved:
        log.info("run %s: claimed by another task", job.run_id)
        return "discarded"
    log.info(
        "run %s: %s in the fast lane after %.0f ms; sent to the slow lane",
        job.run_id,
        why,
        (time.perf_counter() - began) * 1000,
    )
    return "slow lane"


def _name(draw: str | Draw | None) -> str | None:
    return draw.name if isinstance(draw, Draw) else draw


def _stock_up(ready: Prepared, job: Job) -> None:
    """Make the exercise's next draws now that the result is stored (see worker.trees): a
    failure here costs the next grading its ready draw, never this one its result."""
    try:
        ready.stock_up(job.draws)
    except Exception:
        log.exception("run %s: no draw was made ready for the next grading", job.run_id)


def _store(
    database: Database,
    settings: Settings,
    job: Job,
    report: Report,
    began: float,
    draw: str | None = None,
) -> str:
    """Store ``report`` as ``job``'s result (its grading began at ``began``, on the hidden
    trees of ``draw``); what happened."""
    run_id, claim = job.run_id, job.claim
    if report.verdict == RunVerdict.INTERNAL_ERROR:
        log.error("run %s: the sandbox failed: %s", run_id, report.message)
        return _retry(database, settings, job, "the sandbox failed", report)
    try:
        with database.session() as session:
            stored = finish_run(
                session, settings, _queue(settings, database), claim, report, draw=draw
            )
    except Exception as error:
        log.exception("run %s: its result could not be stored", run_id)
        what = f"its result could not be stored ({type(error).__name__})"
    else:
        log.info(
            "run %s %s: %s in %.0f ms",
            run_id,
            "graded" if stored else "discarded (claimed by another task)",
            report.verdict,
            (time.perf_counter() - began) * 1000,
        )
        return "graded" if stored else "discarded"
    return _retry(database, settings, job, what)


def _retry(
    database: Database, settings: Settings, job: Job, what: str, report: Report | None = None
) -> str:
    """After a failure of ours (``what``): send ``job``'s run again, or end it, with the
    failed grading's ``report`` if there is one (see the module's docstring)."""
    run_id, claim = job.run_id, job.claim
    try:
        with database.session() as session:
            queue = _queue(settings, database)
            retried = retry_run(session, settings, queue, claim, what, report)
    except Exception as error:
        if report is None:
            if isinstance(error, OperationalError | InterfaceError):
                log.warning("run %s: the database is unreachable; the task is tried again", run_id)
                raise
            log.exception("run %s: neither sent again nor ended; the reaper will send it", run_id)
            return "error"
        # The report itself may be what the database refused: end the run without it.
        log.exception("run %s: the failed grading's report could not be stored", run_id)
    else:
        if retried is None:
            log.info("run %s: claimed by another task", run_id)
            return "discarded"
        if retried.again:
            log.warning("run %s: %s; sent again", run_id, what)
            return "retried"
        log.error("run %s ended as internal_error: %s", run_id, what)
        return "error"
    return _retry(database, settings, job, what)
