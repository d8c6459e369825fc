"""Worker heartbeats: each worker says, every few seconds, which queues it serves.

A worker reports under a name of its own start (``celery@host/pid-token``, see
:mod:`worker.heartbeat`) and grades under the same name, so a run whose worker stopped
reporting is told apart from one whose worker was restarted under the same host name."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import Select, delete, func, select, update
from sqlalchemy.orm import Session

from grader.models import utcnow
from grader.models.workers import WorkerHeartbeat


def record(
    session: Session, hostname: str, queues: Iterable[str], now: datetime | None = None
) -> None:
    """Note that ``hostname`` is alive and serves ``queues`` (commits)."""
    now = now or utcnow()
    hostname = hostname[:200]
    for queue in queues:
        updated = session.execute(
            update(WorkerHeartbeat)
            .where(WorkerHeartbeat.hostname == hostname, WorkerHeartbeat.queue == queue)
            .values(seen_at=now)
            .execution_options(synchronize_session=False)
        )
        if not updated.rowcount:  # type: ignore[attr-defined]
            session.add(WorkerHeartbeat(hostname=hostname, queue=queue[:100], seen_at=now))
    # Workers restarted long ago.
    session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.seen_at < now - FORGOTTEN))
    session.commit()


FORGOTTEN = timedelta(days=2)
"""A worker silent this long is forgotten (its heartbeats removed): longer than any run's
timeout, so that every run it held was taken back by then."""


def gone(cutoff: datetime) -> Select[str]:
    """The names of the workers that reported, but not since ``cutoff``."""
    return (
        select(WorkerHeartbeat.hostname)
        .group_by(WorkerHeartbeat.hostname)
        .having(func.max(WorkerHeartbeat.seen_at) < cutoff)
    )


def last_seen(session: Session, queue: str) -> datetime | None:
    """When a worker serving ``queue`` last reported; None: never."""
    return session.scalar(
        select(func.max(WorkerHeartbeat.seen_at)).where(WorkerHeartbeat.queue == queue)
    )
