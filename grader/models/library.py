"""Wrong implementations an instructor adds to an exercise's library (beside the shipped
ones in ``exercises/implementations``), so that the diagnosis can name their mistake.

An added implementation is a course's code, not the project's: it runs in the sandbox
like a student's, never in the trusted process. A worker checks it on the exercise's
public trees and the hidden pool's catchers and stores, per tree, whether the tree catches
it and its signature there (``result``); the diagnosis compares students' searches with
those stored signatures.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from grader.models.base import Base, utcnow


class AddedState(StrEnum):
    """Where an added implementation's check is: queued or running, done, or failed (its
    code could not be run on the trees: the ``problem`` says why)."""

    CHECKING = "checking"
    READY = "ready"
    FAILED = "failed"


class AddedImplementation(Base):
    """One wrong implementation an instructor added to an exercise's library."""

    __tablename__ = "added_implementations"
    __table_args__ = (UniqueConstraint("exercise_id", "stem"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    exercise_id: Mapped[int] = mapped_column(
        ForeignKey("exercises.id", ondelete="CASCADE"), index=True
    )
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    stem: Mapped[str] = mapped_column(String(80))
    """Its name in the library, unique in the exercise (the diagnosis names it
    ``added/<stem>``)."""
    source: Mapped[str] = mapped_column(Text)
    name: Mapped[str] = mapped_column(String(200))
    """The misconception's short name, as students read it."""
    explanation: Mapped[str] = mapped_column(Text)
    pseudocode: Mapped[str] = mapped_column(Text, default="")
    hint: Mapped[str] = mapped_column(Text)
    active: Mapped[bool] = mapped_column(default=True)
    """False: kept, but left out of diagnoses."""
    state: Mapped[str] = mapped_column(String(20), default=AddedState.CHECKING)
    problem: Mapped[str | None] = mapped_column(Text)
    version_id: Mapped[int | None] = mapped_column(
        ForeignKey("exercise_versions.id", ondelete="SET NULL")
    )
    """The exercise version it was last checked against."""
    result: Mapped[dict[str, Any] | None] = mapped_column(deferred=True)
    """The check's result document (per tree: caught or not, its signature)."""
    task_id: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    checked_at: Mapped[datetime | None]
