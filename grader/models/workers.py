"""What the workers report about themselves (heartbeats)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from grader.models.base import Base, utcnow


class WorkerHeartbeat(Base):
    """The last time a worker said it was alive, one row per worker and queue it serves."""

    __tablename__ = "worker_heartbeats"
    __table_args__ = (UniqueConstraint("hostname", "queue"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hostname: Mapped[str] = mapped_column(String(200))
    """Celery's name for the worker (``celery@host``)."""
    queue: Mapped[str] = mapped_column(String(100))
    seen_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
