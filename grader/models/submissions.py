"""Submissions, their grading runs, and the per-tree and per-node results of a run."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import ForeignKey, Index, String, Text, text, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from grader.models.base import Base, utcnow
from reference.reporting.limits import LIMITS

if TYPE_CHECKING:
    from grader.models.exercises import ExerciseVersion


class RunState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    GRADED = "graded"
    ERROR = "error"


class Lane(StrEnum):
    """Which grading queue a run waits in. Every run starts in the fast lane, with a small
    budget of time; one that needs more (or a student's second run while the first waits)
    is graded in the slow lane, with the exercise's full limits."""

    FAST = "fast"
    SLOW = "slow"


class SubmissionKind(StrEnum):
    """What a submission is for. An attempt is graded on every tree and counts (attempt
    numbers, scores, standings, the grade book, class results, regrades, LMS and LTI scores); a
    check is a draft graded on the public trees only, for the student alone: it counts
    towards nothing but its own, looser rate limit."""

    ATTEMPT = "attempt"
    CHECK = "check"


ATTEMPT_NUMBERS = "uq_submissions_user_exercise_attempt"
"""The unique index that gives each of a student's attempts on an exercise a number of its
own (checks, all numbered 0, are left out of it)."""
_ATTEMPTS_ONLY = text(f"kind = '{SubmissionKind.ATTEMPT.value}'")
EXERCISE_ATTEMPTS = "ix_submissions_exercise_attempts"
"""An exercise's attempts by student: what the instructor pages of an exercise read first
(each student's latest run, the grades), without reading every other exercise's as the
index of attempt numbers, which leads with the student, made them (migration 0015)."""


class Submission(Base):
    __tablename__ = "submissions"
    __table_args__ = (
        Index("ix_submissions_user_exercise", "user_id", "exercise_id"),
        Index(
            EXERCISE_ATTEMPTS,
            "exercise_id",
            "user_id",
            sqlite_where=_ATTEMPTS_ONLY,
            postgresql_where=_ATTEMPTS_ONLY,
        ),
        Index(
            ATTEMPT_NUMBERS,
            "user_id",
            "exercise_id",
            "attempt",
            unique=True,
            sqlite_where=_ATTEMPTS_ONLY,
            postgresql_where=_ATTEMPTS_ONLY,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    exercise_id: Mapped[int] = mapped_column(ForeignKey("exercises.id", ondelete="CASCADE"))
    attempt: Mapped[int]
    """The student's attempt number on this exercise (1, 2, ...), its own; 0 for a check."""
    kind: Mapped[str] = mapped_column(String(10), default=SubmissionKind.ATTEMPT)
    """A :class:`SubmissionKind`."""
    filename: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(String(20), default="web")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    runs: Mapped[list[GradingRun]] = relationship(
        back_populates="submission", order_by="GradingRun.id"
    )

    @property
    def is_check(self) -> bool:
        return self.kind == SubmissionKind.CHECK

    @property
    def latest_run(self) -> GradingRun | None:
        """The newest run that counts (a regrade's preview run does not, until confirmed)."""
        counted = [run for run in self.runs if run.counted]
        return counted[-1] if counted else None


MISCONCEPTION_NAME = 200
"""The width of a run's misconception: two implementation names of a fitted report
(``LIMITS.implementation_name`` each) joined by ``+`` fit it."""


class GradingRun(Base):
    """One grading of a submission against one exercise version."""

    __tablename__ = "grading_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), index=True
    )
    exercise_version_id: Mapped[int] = mapped_column(ForeignKey("exercise_versions.id"))
    state: Mapped[str] = mapped_column(String(20), default=RunState.QUEUED, index=True)
    claims: Mapped[int] = mapped_column(default=0)
    """How many times a task claimed this run to grade it (a lost worker leaves it running;
    a move to the slow lane takes its claim back). ``max_run_attempts`` bounds it."""
    queued_at: Mapped[datetime] = mapped_column(default=utcnow)
    """When the run was first queued (queue-wait figures count from here)."""
    requeued_at: Mapped[datetime | None]
    """When it was last put back in the queue (retried, moved lanes, sent again by the
    reaper); None: never. The reaper's timeout of a queued run counts from the later of
    the two."""
    lane: Mapped[str] = mapped_column(String(10), default=Lane.FAST)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(200))
    task_id: Mapped[str | None] = mapped_column(String(200))
    verdict: Mapped[str | None] = mapped_column(String(40))
    score: Mapped[float | None]
    max_score: Mapped[float | None]
    message: Mapped[str | None] = mapped_column(Text)
    counted: Mapped[bool] = mapped_column(default=True, server_default=true())
    """False while the run is a regrade's preview: it is graded and stored, but it is no
    submission's result, and nobody (the student, the LMS, class results) hears of it until
    the regrade is confirmed."""
    regrade_id: Mapped[int | None] = mapped_column(
        ForeignKey("regrades.id", ondelete="CASCADE"), index=True
    )
    """The regrade that made this run (None: a submission's own grading)."""
    misconception: Mapped[str | None] = mapped_column(String(MISCONCEPTION_NAME), index=True)
    """The diagnosis's nearest misconception (its first implementation's library name,
    ``family/stem`` or ``added/<stem>``, or two joined by ``+``); None: no diagnosis
    (passed, or none made)."""
    misconception_exact: Mapped[bool | None]
    """True when that misconception matched the search on every tree."""
    draw: Mapped[str | None] = mapped_column(String(200))
    """The name of the draw of hidden trees this grading took (:mod:`worker.trees`); None:
    not graded yet, a check of a draft (no hidden tree), or graded before draws were named
    (its draw's name was the version's and the submission's)."""
    details: Mapped[dict[str, Any] | None] = mapped_column(deferred=True)
    """What of the run's report only its page shows (replays, printed output), as
    :class:`grader.services.results.RunDetails`' document; the rest of the report is in
    the run's tree and node rows (:func:`grader.services.results.load_report` reads it
    back). None: no report was stored."""

    submission: Mapped[Submission] = relationship(back_populates="runs")
    version: Mapped[ExerciseVersion] = relationship()
    trees: Mapped[list[TreeResult]] = relationship(
        back_populates="run", order_by="TreeResult.position", cascade="all, delete-orphan"
    )


class TreeResult(Base):
    __tablename__ = "tree_results"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(
        ForeignKey("grading_runs.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(LIMITS.name))
    hidden: Mapped[bool]
    verdict: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text, default="")
    score: Mapped[float | None]
    max_score: Mapped[float | None]
    node_count: Mapped[int] = mapped_column(default=0)
    counts: Mapped[dict[str, Any] | None]
    """Verdict -> number of nodes (complete even when not every node has a row)."""
    divergence_node: Mapped[str | None] = mapped_column(String(LIMITS.node_name))
    """The node where the search first left the reference's (None: it never did)."""
    divergence_message: Mapped[str | None] = mapped_column(Text)

    run: Mapped[GradingRun] = relationship(back_populates="trees")
    nodes: Mapped[list[NodeResult]] = relationship(
        back_populates="tree", order_by="NodeResult.position", cascade="all, delete-orphan"
    )


class NodeResult(Base):
    __tablename__ = "node_results"

    id: Mapped[int] = mapped_column(primary_key=True)
    tree_result_id: Mapped[int] = mapped_column(
        ForeignKey("tree_results.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int]
    node: Mapped[str] = mapped_column(String(LIMITS.node_name))
    verdict: Mapped[str] = mapped_column(String(40))
    expected: Mapped[str | None] = mapped_column(String(LIMITS.stored_value))
    """The value compared, as the report's JSON writes it (``3``, ``"3/4"``, ``"inf"``)."""
    actual: Mapped[str | None] = mapped_column(String(LIMITS.stored_value))
    message: Mapped[str] = mapped_column(Text, default="")

    tree: Mapped[TreeResult] = relationship(back_populates="nodes")
