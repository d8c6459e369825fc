"""Exercises of a course and their versions (an exercise folder's files, by content hash)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from grader.models.base import Base, utcnow


class Exercise(Base):
    __tablename__ = "exercises"
    __table_args__ = (UniqueConstraint("course_id", "slug"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), index=True)
    slug: Mapped[str] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(String(200))
    published: Mapped[bool] = mapped_column(default=False)
    current_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("exercise_versions.id", use_alter=True, ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    current_version: Mapped[ExerciseVersion | None] = relationship(
        foreign_keys=[current_version_id], post_update=True
    )


class ExerciseVersion(Base):
    """The files of an exercise folder (name -> text) at one point; never changed."""

    __tablename__ = "exercise_versions"
    __table_args__ = (UniqueConstraint("exercise_id", "content_hash"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    exercise_id: Mapped[int] = mapped_column(
        ForeignKey("exercises.id", ondelete="CASCADE"), index=True
    )
    content_hash: Mapped[str] = mapped_column(String(64))
    files: Mapped[dict[str, Any]] = mapped_column(deferred=True)
    """The exercise's files (its tree files may be megabytes): loaded only when a version
    is first written out to the instance folder (see ``exercise_store.materialize``)."""
    statement: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    exercise: Mapped[Exercise] = relationship(foreign_keys=[exercise_id])
