"""Exercises of a course and their versions (an exercise folder's files, by content hash)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.sql.elements import ColumnElement

from grader.models.base import Base, utcnow
from grader.models.course_work import ExerciseStatus, LatePolicy


class Exercise(Base):
    __tablename__ = "exercises"
    __table_args__ = (UniqueConstraint("course_id", "slug"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), index=True)
    slug: Mapped[str] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20), default=ExerciseStatus.DRAFT)
    """An :class:`ExerciseStatus`."""
    section_id: Mapped[int | None] = mapped_column(
        ForeignKey("sections.id", ondelete="SET NULL"), index=True
    )
    position: Mapped[int] = mapped_column(default=0)
    """Its place in its section (or among the exercises in no section), smallest first."""
    opens_at: Mapped[datetime | None]
    """Before then students see the exercise but cannot submit (None: open)."""
    due_at: Mapped[datetime | None]
    """None: no due date."""
    due_origin: Mapped[str | None] = mapped_column(String(20))
    """Who set ``due_at``: ``instructor``, or ``lti`` (an LTI line item's end date, honoured
    while no instructor has set one)."""
    late_policy: Mapped[str] = mapped_column(String(20), default=LatePolicy.NONE)
    """A :class:`LatePolicy`."""
    late_penalty_per_day: Mapped[float] = mapped_column(default=0.0)
    """Percent of the score taken per started day late (``penalty`` policy)."""
    late_penalty_cap: Mapped[float] = mapped_column(default=100.0)
    """At most this percent is taken, however late."""
    current_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("exercise_versions.id", use_alter=True, ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    current_version: Mapped[ExerciseVersion | None] = relationship(
        foreign_keys=[current_version_id], post_update=True
    )

    @hybrid_property
    def published(self) -> bool:
        """Open to students (listed, and taking submissions within its dates)."""
        return self.status == ExerciseStatus.PUBLISHED

    @published.inplace.setter
    def _published_setter(self, value: bool) -> None:
        self.status = ExerciseStatus.PUBLISHED if value else ExerciseStatus.DRAFT

    @published.inplace.expression
    @classmethod
    def _published_expression(cls) -> ColumnElement[bool]:
        return cls.status == ExerciseStatus.PUBLISHED


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
