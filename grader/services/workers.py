"""Worker heartbeats: each worker says, every few seconds, which queues it serves."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import func, select, update
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
    session.commit()


def last_seen(session: Session, queue: str) -> datetime | None:
    """When a worker serving ``queue`` last reported; None: never."""
    return session.scalar(
        select(func.max(WorkerHeartbeat.seen_at)).where(WorkerHeartbeat.queue == queue)
    )
