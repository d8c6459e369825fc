"""What the workers report about themselves (heartbeats), and what the reaper knows of the
broker (its epoch)."""

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


class BrokerEpoch(Base):
    """The token the reaper last wrote beside a broker's messages: a broker that no longer
    holds it lost them (see :mod:`grader.services.broker_epoch`)."""

    __tablename__ = "broker_epochs"

    id: Mapped[int] = mapped_column(primary_key=True)
    broker: Mapped[str] = mapped_column(String(300), unique=True)
    """The broker's URL, its password hidden."""
    token: Mapped[str] = mapped_column(String(64))
    written_at: Mapped[datetime] = mapped_column(default=utcnow)
