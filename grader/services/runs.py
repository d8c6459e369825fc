"""Grading runs: their place in the queue, starting and finishing them, the reaper (regrades
make runs of their own: :mod:`grader.services.regrades`).

The database is the truth about a run. A task claims a run to start it (the run counts its
claims), and only the claim that still owns the run when grading ends may store its result,
so a run is graded exactly once however many times its task reaches a worker.

A run waits in one of two lanes (:class:`~grader.models.Lane`), the fast one unless the
student already has a run waiting or being graded; a fast-lane run whose submission needs
more than the fast lane's budget is moved to the slow lane (:func:`move_to_slow_lane`).
A run keeps its first ``queued_at`` however often it is queued again.

The functions that change a run do not commit: the caller's unit of work does (a worker's
``Database.session()`` block, a request's session). What must happen after the commit,
sending a run's task again or the outbound deliveries a finished run made, is handed to the
sender they are given (the ``Queue``), which does it once the session commits and never if
it rolls back (:mod:`grader.services.unit_of_work`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session, joinedload

from grader.config import Settings
from grader.models import ExerciseVersion, GradingRun, RunState, utcnow
from grader.models.submissions import Lane
from grader.services import workers
from grader.services.deliveries import on_run_finished
from grader.services.results import store_report
from grader.services.tasks import DELIVER_TASK, GRADE_TASK
from grader.services.unit_of_work import Dispatcher
from reference.report import Report, RunVerdict
from reference.safe_json import safe_text


def queue_position(session: Session, run: GradingRun) -> int | None:
    """1 for the next run to be graded; None when ``run`` is not queued."""
    if run.state != RunState.QUEUED:
        return None
    ahead = session.scalar(
        select(func.count())
        .select_from(GradingRun)
        .where(GradingRun.state == RunState.QUEUED, GradingRun.id < run.id)
    )
    return (ahead or 0) + 1


@dataclass(frozen=True, slots=True)
class Claim:
    """A task's claim on a run: the run and the claim's number (the run's count of claims
    with this one). Only the latest claim on a running run may store its result or send
    it back to the queue."""

    run_id: int
    number: int


@dataclass(frozen=True, slots=True)
class Start:
    """What a task's claim on its run allows: grading it (``run`` and ``claim`` are set),
    or nothing (``reason`` says why)."""

    reason: str
    claim: Claim | None = None
    run: GradingRun | None = None
    """The run to grade, with its submission and its exercise version (and the version's
    exercise) loaded."""


def start_run(
    session: Session, settings: Settings, queue: Dispatcher, run_id: int, worker: str, task_id: str
) -> Start:
    """Claim ``run_id`` for this task (once the caller commits). A run claimed too often
    ends here as ``internal_error``; its outbound deliveries are sent after the commit."""
    # With what grading it needs, in the same statement.
    run = session.scalar(
        select(GradingRun)
        .where(GradingRun.id == run_id)
        .options(
            joinedload(GradingRun.submission, innerjoin=True),
            joinedload(GradingRun.version, innerjoin=True).joinedload(
                ExerciseVersion.exercise, innerjoin=True
            ),
        )
        .with_for_update(of=GradingRun)
    )
    if run is None:
        return Start("no such run")
    if run.state in (RunState.GRADED, RunState.ERROR):
        return Start(f"already {run.state}")
    stale = _stale_task(run, task_id)
    if stale is not None:
        return Start(stale)
    run.claims += 1
    now = utcnow()
    if run.claims > settings.max_run_attempts:
        _fail(run, our_fault(f"grading failed or was interrupted {run.claims - 1} times"), now)
        queue.dispatch(session, DELIVER_TASK, on_run_finished(session, run))
        return Start("too many claims")
    run.state = RunState.RUNNING
    run.started_at = now
    run.worker = worker[:200]
    run.task_id = task_id[:200]
    return Start("started", Claim(run.id, run.claims), run=run)


def _stale_task(run: GradingRun, task_id: str) -> str | None:
    """Why the task ``task_id`` may not claim ``run``, if it may not.

    A run notes the id of the one task it waits for (once the broker took it) and of the
    one grading it. Another task is a leftover: a message the run was sent with before it
    was sent again (the broker thought lost, or the reaper took the run back), arriving
    late; grading with it would take the run from the task that owns it. The same task
    again is its message handed out once more after its worker was lost, and grades the
    run. A queued run whose task is not noted yet (sent a moment ago, or never) takes any
    task."""
    if run.task_id is None or run.task_id == task_id:
        return None
    if run.state == RunState.RUNNING:
        return "being graded by another task"
    return "sent again since this task"


def _owned(session: Session, claim: Claim) -> GradingRun | None:
    """The claimed run, locked, if ``claim`` still owns it: it is running and no later
    claim was made on it; else None."""
    # With its submission, which the hooks that make the outbound deliveries read.
    run = session.scalar(
        select(GradingRun)
        .where(GradingRun.id == claim.run_id)
        .options(joinedload(GradingRun.submission, innerjoin=True))
        .with_for_update(of=GradingRun)
    )
    if run is None or run.state != RunState.RUNNING or run.claims != claim.number:
        return None
    return run


def finish_run(
    session: Session,
    settings: Settings,
    queue: Dispatcher,
    claim: Claim,
    report: Report | Mapping[str, Any],
    *,
    draw: str | None = None,
) -> bool:
    """Store ``report`` if this claim still owns the run, graded on the hidden trees of
    ``draw`` (see :func:`earlier_draw`); False: discarded.

    The outbound deliveries the result calls for are made in the same transaction and sent
    after its commit."""
    run = _owned(session, claim)
    if run is None:
        return False
    run.state = RunState.GRADED
    run.finished_at = utcnow()
    run.draw = draw
    store_report(session, run, report, settings.node_rows_limit)
    queue.dispatch(session, DELIVER_TASK, on_run_finished(session, run))
    return True


def earlier_draw(session: Session, run: GradingRun) -> str | None:
    """The draw of hidden trees an earlier grading of ``run``'s submission against the same
    exercise version took, for ``run`` to take again (a regrade is judged on the same
    trees); None when there was none. A run graded before draws were named was drawn
    under the version's and the submission's names."""
    earlier = session.execute(
        select(GradingRun.draw)
        .where(
            GradingRun.submission_id == run.submission_id,
            GradingRun.exercise_version_id == run.exercise_version_id,
            GradingRun.state == RunState.GRADED,
            GradingRun.id != run.id,
        )
        .order_by(GradingRun.id)
        .limit(1)
    ).first()
    if earlier is None:
        return None
    if earlier.draw is not None:
        return str(earlier.draw)
    return f"version-{run.version.content_hash}/submission-{run.submission_id}"


def our_fault(what: str) -> str:
    """The message of a run that ended through our fault, for the student to read."""
    return f"{what}. This is not your fault but the grader's, and it does not count as an attempt."


@dataclass(frozen=True, slots=True)
class Retry:
    """What became of a run after a failure of ours: queued to be claimed again, or ended as
    ``internal_error``."""

    again: bool


def retry_run(
    session: Session,
    settings: Settings,
    queue: Dispatcher,
    claim: Claim,
    what: str,
    report: Report | Mapping[str, Any] | None = None,
) -> Retry | None:
    """After a failure of ours under this claim (the grading raised, its result could not be
    stored, the sandbox failed): the run back in the queue while it has had fewer than
    ``max_run_attempts`` claims, else ended as ``internal_error``, the student told that it
    is our fault and why (``what``: "the sandbox failed", ...), and ``report`` (the last
    grading's, if any) kept for the record. The run's task, or the outbound deliveries of
    its end, are sent after the commit. None when this claim no longer owns the run."""
    run = _owned(session, claim)
    if run is None:
        return None
    now = utcnow()
    if run.claims < settings.max_run_attempts:
        _requeue(run, now)
        queue.dispatch(session, GRADE_TASK, [run.id])
        return Retry(again=True)
    if report is not None:
        store_report(session, run, report, settings.node_rows_limit)
    tries = "" if run.claims == 1 else f" {run.claims} times, the last time"
    # The stored report reads back with the run's verdict, score and message: what an LMS
    # is sent says what the student reads, and is not a grade.
    _fail(run, our_fault(f"grading failed{tries} because {what}"), now)
    queue.dispatch(session, DELIVER_TASK, on_run_finished(session, run))
    return Retry(again=False)


def _fail(run: GradingRun, message: str, now: datetime) -> None:
    run.state = RunState.ERROR
    run.verdict = RunVerdict.INTERNAL_ERROR
    run.score = None  # not a grade, whatever a stored report says
    run.message = safe_text(message)
    run.finished_at = now


def move_to_slow_lane(session: Session, queue: Dispatcher, claim: Claim) -> bool:
    """Put a fast-lane run that needs more than the fast lane's budget back in the queue,
    in the slow lane; its task is sent after the commit. Its claim here does not count as an
    attempt. False when this claim no longer owns the run."""
    run = _owned(session, claim)
    if run is None:
        return False
    _requeue(run, utcnow())
    run.lane = Lane.SLOW
    run.claims -= 1
    queue.dispatch(session, GRADE_TASK, [run.id])
    return True


def lanes(session: Session, run_ids: list[int]) -> dict[int, str]:
    """Each run's lane (runs that do not exist are left out)."""
    query = select(GradingRun.id, GradingRun.lane).where(GradingRun.id.in_(run_ids))
    return {row.id: row.lane for row in session.execute(query)}


def mark_sent(session: Session, run_id: int, task_id: str) -> None:
    """Record that the run's task reached the broker (one statement)."""
    session.execute(
        update(GradingRun)
        .where(GradingRun.id == run_id, GradingRun.state == RunState.QUEUED)
        .values(task_id=task_id)
        .execution_options(synchronize_session=False)
    )


def stuck_runs(session: Session, settings: Settings, now: datetime | None = None) -> list[int]:
    """Runs to send again, put back in the queue (the reaper sends them after the commit):
    never sent (for ``unsent_grace_seconds``); running on a worker that stopped reporting
    (its heartbeat is older than ``worker_gone_seconds``: killed, or its machine lost); or,
    the last resort, queued or running past ``run_timeout_seconds``.

    A queued run's time is counted from when it was last queued (its first ``queued_at``
    is kept for the queue-wait figures)."""
    now = now or utcnow()
    timeout = now - timedelta(seconds=settings.run_timeout_seconds)
    last_queued = func.coalesce(GradingRun.requeued_at, GradingRun.queued_at)
    gone = workers.gone(now - timedelta(seconds=settings.worker_gone_seconds))
    unsent_before = now - timedelta(seconds=settings.unsent_grace_seconds)
    runs = session.scalars(
        select(GradingRun)
        .where(
            or_(
                (GradingRun.state == RunState.QUEUED)
                & (
                    (last_queued < timeout)
                    | (GradingRun.task_id.is_(None) & (last_queued < unsent_before))
                ),
                (GradingRun.state == RunState.RUNNING)
                & ((GradingRun.started_at < timeout) | GradingRun.worker.in_(gone)),
            )
        )
        .order_by(GradingRun.id)
        .with_for_update(skip_locked=True)
    ).all()
    for run in runs:
        # A running run goes back to the queue; its next claim counts as another attempt.
        _requeue(run, now)
    return [run.id for run in runs]


def unstarted_runs(session: Session, _settings: Settings) -> list[int]:
    """Queued runs whose task the broker took: sent again when the broker lost its
    messages (the reaper sends them after the commit; a message that was not lost after
    all is left over, and its task does nothing)."""
    runs = session.scalars(
        select(GradingRun)
        .where(GradingRun.state == RunState.QUEUED, GradingRun.task_id.is_not(None))
        .order_by(GradingRun.id)
        .with_for_update(skip_locked=True)
    ).all()
    now = utcnow()
    for run in runs:
        _requeue(run, now)
    return [run.id for run in runs]


def _requeue(run: GradingRun, now: datetime) -> None:
    run.state = RunState.QUEUED
    run.requeued_at = now
    # Unsent until Queue.send notes the new task (if the broker cannot take it, the reaper
    # sends it again): the one before is a leftover now.
    run.task_id = None
