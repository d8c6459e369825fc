"""How a course runs its exercises: sections and order, deadlines and late policies,
per-student extensions, grade overrides, notices to students and the audit log."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from grader.models.base import Base, utcnow


class ExerciseStatus(StrEnum):
    """Where an exercise is in its life. A draft was never shown to students; a published
    exercise is listed and open (within its dates); a hidden one is neither listed nor
    open, but its students still open their own submissions; an archived one is listed
    apart, read-only, with each student's history. Nothing with submissions is deleted."""

    DRAFT = "draft"
    PUBLISHED = "published"
    HIDDEN = "hidden"
    ARCHIVED = "archived"


class LatePolicy(StrEnum):
    """What a submission after the due date gets. ``none``: accepted and flagged late, no
    penalty; ``penalty``: accepted, its score lowered by a share per started day late, up
    to a cap; ``refuse``: not accepted."""

    NONE = "none"
    PENALTY = "penalty"
    REFUSE = "refuse"


class Section(Base):
    """A group of a course's exercises (an assignment, a week), in the course's order."""

    __tablename__ = "sections"

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(200))
    position: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Extension(Base):
    """One student's own due date on one exercise (it replaces the exercise's while it is
    later; see :func:`grader.services.grades.deadline`)."""

    __tablename__ = "extensions"
    __table_args__ = (UniqueConstraint("exercise_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    exercise_id: Mapped[int] = mapped_column(
        ForeignKey("exercises.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    due_at: Mapped[datetime]
    reason: Mapped[str] = mapped_column(Text, default="")
    granted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GradeOverride(Base):
    """An instructor's score for one student on one exercise, with the comment the student
    reads: while it stands it is the student's grade (and what the LMS gets)."""

    __tablename__ = "grade_overrides"
    __table_args__ = (UniqueConstraint("exercise_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    exercise_id: Mapped[int] = mapped_column(
        ForeignKey("exercises.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    score: Mapped[float]
    max_score: Mapped[float]
    comment: Mapped[str] = mapped_column(Text)
    set_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    set_at: Mapped[datetime] = mapped_column(default=utcnow)


class Notice(Base):
    """Something a student is told on their pages: a regrade, an override, an extension."""

    __tablename__ = "notices"
    __table_args__ = (Index("ix_notices_user_exercise", "user_id", "exercise_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    exercise_id: Mapped[int] = mapped_column(ForeignKey("exercises.id", ondelete="CASCADE"))
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE")
    )
    kind: Mapped[str] = mapped_column(String(20))
    """``regrade``, ``override``, ``extension`` or ``deadline``."""
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    seen_at: Mapped[datetime | None]


class AuditEvent(Base):
    """Who changed what, when: overrides, extensions, deadlines, life cycle, regrades."""

    __tablename__ = "audit_events"
    __table_args__ = (Index("ix_audit_events_course_at", "course_id", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"))
    exercise_id: Mapped[int | None] = mapped_column(ForeignKey("exercises.id", ondelete="SET NULL"))
    subject_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    """The student concerned, if one is."""
    action: Mapped[str] = mapped_column(String(60))
    """A dotted name: ``grade.override``, ``extension.grant``, ``exercise.status``..."""
    details: Mapped[dict[str, Any]]
    """What changed: ``{"before": ..., "after": ...}`` and anything the action adds."""


class RegradeState(StrEnum):
    PREVIEWING = "previewing"
    """Its runs are being graded; nothing counts yet."""
    READY = "ready"
    """Every run is graded: the preview can be confirmed or cancelled."""
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"


class Regrade(Base):
    """A regrade of each student's latest attempt on an exercise's current version: graded
    first as a preview (its runs do not count), then confirmed (they do, students are told,
    the LMS gets the new scores) or cancelled."""

    __tablename__ = "regrades"

    id: Mapped[int] = mapped_column(primary_key=True)
    exercise_id: Mapped[int] = mapped_column(
        ForeignKey("exercises.id", ondelete="CASCADE"), index=True
    )
    version_id: Mapped[int] = mapped_column(ForeignKey("exercise_versions.id"))
    state: Mapped[str] = mapped_column(String(20), default=RegradeState.PREVIEWING)
    requested_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class AnalysisState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class VersionAnalysis(Base):
    """The heavy work on an exercise version, done by a worker rather than in a request:
    expanding its games, the reference trace of each public tree, the hidden-tree check.
    Pages read ``result``; while it runs they show ``stage`` and ``progress``."""

    __tablename__ = "version_analyses"

    version_id: Mapped[int] = mapped_column(
        ForeignKey("exercise_versions.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[str] = mapped_column(String(20), default=AnalysisState.QUEUED)
    stage: Mapped[str] = mapped_column(String(200), default="")
    """What it is doing now, in words ("expanding tree full", "hidden-tree check")."""
    progress: Mapped[float] = mapped_column(default=0.0)
    """0.0 to 1.0."""
    result: Mapped[dict[str, Any] | None] = mapped_column(deferred=True)
    error: Mapped[str | None] = mapped_column(Text)
    task_id: Mapped[str | None] = mapped_column(String(200))
    queued_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
