"""The kinds of durable job the grader asks the workers to do: one registration each.

A job is a row (the truth about it) and a Celery task, named after its kind, that carries
the row's id. Each kind says where its task goes, how its row notes that the task reached
the broker, how the reaper finds the jobs whose task was lost (or why none is needed), and
which plain function does the work when tasks are eager. That function is named by a
dotted path, resolved when it is called, as the task is resolved by its name: the grader
never imports the worker.

Adding a kind is one :func:`register` call here (and a route in
:data:`grader.services.tasks.TASK_QUEUES`) beside the worker function it names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models.submissions import Lane
from grader.services import added_implementations, analyses, broker_epoch, runs
from grader.services.tasks import (
    ANALYSE_TASK,
    CHECK_ADDED_TASK,
    DELIVER_TASK,
    GRADE_TASK,
    GRADING_QUEUES,
    LINEITEM_TASK,
    TASK_QUEUES,
)
from grader.services.unit_of_work import Dispatcher

Route = Callable[[Session, list[int]], dict[int, str]]
"""The queue of each job that has one of its own (a run's lane); the others go to the
kind's queue."""
MarkSent = Callable[[Session, int, str], None]
"""Notes on the job's row the id of the task that reached the broker."""
Finder = Callable[[Session, Settings], list[int]]
"""Puts back in the queue the jobs whose task was lost; their ids (sent after the commit)."""
Work = Callable[[Database, Settings, int], object]
"""Does one job in this process: the database, the settings and the job's id."""


@dataclass(frozen=True, slots=True)
class JobKind:
    """One kind of durable job."""

    name: str
    """The Celery task's name."""
    eager: str
    """``module:function``, the :data:`Work` done in this process when tasks are eager."""
    route: Route | None = None
    mark_sent: MarkSent | None = None
    """None when the row keeps no task id."""
    stuck: Finder | None = None
    """How the reaper finds jobs whose task was lost; None only with :attr:`unreaped_because`."""
    unreaped_because: str = ""
    """Why the reaper leaves this kind alone (what finds its lost tasks instead)."""
    unstarted: Finder | None = None
    """Puts back in the queue the jobs whose task the broker took and no worker started,
    when the broker lost its messages (:mod:`grader.services.broker_epoch`); None: the
    kind's :attr:`stuck` rule finds them, or its row cannot tell started from not."""

    def __post_init__(self) -> None:
        if (self.stuck is None) == (not self.unreaped_because):
            raise ValueError(f"{self.name}: a stuck-job finder, or why there is none")

    @property
    def queue(self) -> str:
        """Where a job goes unless :attr:`route` says otherwise."""
        return TASK_QUEUES[self.name]

    def work(self) -> Work:
        """The function named by :attr:`eager`, imported now."""
        module, _, function = self.eager.partition(":")
        found: Work = getattr(importlib.import_module(module), function)
        return found


KINDS: dict[str, JobKind] = {}
"""Every kind of job, by task name."""


def register(kind: JobKind) -> JobKind:
    """Add ``kind`` to :data:`KINDS` (once)."""
    if kind.name in KINDS:
        raise ValueError(f"job kind {kind.name} is registered twice")
    KINDS[kind.name] = kind
    return kind


def kind_of(name: str) -> JobKind:
    """The registered kind of task ``name``."""
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"no job kind is registered for task {name}") from None


def reap(database: Database, settings: Settings, dispatcher: Dispatcher) -> int:
    """Put back in the queue every job whose task was lost, kind by kind, and send them
    after each kind's commit; how many."""
    with database.session() as session:
        lost = broker_epoch.messages_lost(session, settings)
    reaped = 0
    for kind in KINDS.values():
        finders = [kind.stuck, kind.unstarted if lost else None]
        for finder in filter(None, finders):
            with database.session() as session:
                ids = finder(session, settings)
                dispatcher.dispatch(session, kind.name, ids)
            reaped += len(ids)
    return reaped


def _lane_queues(session: Session, run_ids: list[int]) -> dict[int, str]:
    return {
        run_id: GRADING_QUEUES[Lane(lane)] for run_id, lane in runs.lanes(session, run_ids).items()
    }


register(
    JobKind(
        GRADE_TASK,
        eager="worker.execute:execute_run",
        route=_lane_queues,
        mark_sent=runs.mark_sent,
        stuck=runs.stuck_runs,
        unstarted=runs.unstarted_runs,
    )
)
register(
    JobKind(
        ANALYSE_TASK,
        eager="grader.services.analyses:analyse",
        mark_sent=analyses.mark_sent,
        stuck=analyses.stuck_analyses,
        unstarted=analyses.unstarted_analyses,
    )
)
register(
    JobKind(
        CHECK_ADDED_TASK,
        eager="worker.added_check:check_added",
        mark_sent=added_implementations.mark_sent,
        unreaped_because=(
            "a check whose task was lost shows as stuck on its page, where an instructor "
            "asks for it again"
        ),
    )
)
register(
    JobKind(
        DELIVER_TASK,
        eager="worker.outbound:deliver_now",
        unreaped_because=(
            "the periodic sweep (worker.tasks.sweep_deliveries) sends again every delivery "
            "whose next try is due"
        ),
    )
)
register(
    JobKind(
        LINEITEM_TASK,
        eager="grader.lti.lineitems:read_due",
        unreaped_because="a reading lost is asked for again by the course's next launch",
    )
)
