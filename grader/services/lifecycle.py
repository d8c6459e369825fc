"""An exercise's life: draft, published, hidden, archived, deleted.

- **draft**: never shown to students.
- **published**: listed and open for submissions (within its dates).
- **hidden**: not listed, closed to new submissions; a student still opens their own past
  submissions.
- **archived**: listed apart ("Archived") for the students who submitted to it, read-only
  (no submit form), with their history.
- **deleted**: only an exercise nobody ever submitted to (no attempt, no check); anything
  else is refused with the reason, so no student's history is ever lost.

Any state may become published, hidden or archived once a version was published (the
exercise has a current version); it goes back to draft only while it has no submissions.
Who may see an exercise in each state is answered by :mod:`grader.services.permissions`.
Each change is written to the audit log.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from grader.models import Exercise, ExerciseStatus, ExerciseVersion, Submission, User
from grader.models.submissions import SubmissionKind
from grader.services import audit, authoring

STATUS_WORDS = {
    ExerciseStatus.DRAFT: "draft: students do not see it",
    ExerciseStatus.PUBLISHED: "published: listed and open to students",
    ExerciseStatus.HIDDEN: "hidden: not listed, closed; students still open their submissions",
    ExerciseStatus.ARCHIVED: "archived: read-only, listed apart for students who submitted",
}


class LifecycleRefused(Exception):
    """A change the rules forbid; ``message`` says why, for the instructor to read."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def submission_counts(session: Session, exercise: Exercise) -> tuple[int, int]:
    """How many attempts and checks were made on ``exercise``."""
    rows = dict(
        session.execute(
            select(Submission.kind, func.count())
            .where(Submission.exercise_id == exercise.id)
            .group_by(Submission.kind)
        ).all()
    )
    return rows.get(SubmissionKind.ATTEMPT, 0), rows.get(SubmissionKind.CHECK, 0)


def _submissions_named(attempts: int, checks: int) -> str:
    parts = []
    if attempts:
        parts.append(f"{attempts} attempt{'' if attempts == 1 else 's'}")
    if checks:
        parts.append(f"{checks} check{'' if checks == 1 else 's'}")
    return " and ".join(parts)


def status_refusal(session: Session, exercise: Exercise, status: ExerciseStatus) -> str | None:
    """Why ``exercise`` may not become ``status``, or None."""
    if status == exercise.status:
        return f"the exercise is {status} already"
    if status == ExerciseStatus.DRAFT:
        attempts, checks = submission_counts(session, exercise)
        if attempts or checks:
            return (
                f"students made {_submissions_named(attempts, checks)} on it: it can be "
                "hidden or archived, not made a draft again"
            )
        return None
    if exercise.current_version_id is None:
        return "no version of it was published yet: publish a version first"
    return None


def set_status(session: Session, actor: User, exercise: Exercise, status: ExerciseStatus) -> None:
    """Move ``exercise`` to ``status`` (flushed); raises :class:`LifecycleRefused`."""
    refusal = status_refusal(session, exercise, status)
    if refusal is not None:
        raise LifecycleRefused(refusal)
    before = exercise.status
    exercise.status = status
    audit.record(
        session,
        actor,
        exercise.course_id,
        "exercise.status",
        exercise_id=exercise.id,
        before=str(before),
        after=str(status),
    )


def publish_version(
    session: Session,
    actor: User,
    exercise: Exercise,
    version: ExerciseVersion,
    title: str,
) -> None:
    """Make ``version`` the one students see and submit to. A draft becomes published; a
    hidden or archived exercise keeps its status (a corrected version, to regrade with)."""
    before_status = exercise.status
    before_version = exercise.current_version_id
    authoring.publish(exercise, version, title)
    if before_status in (ExerciseStatus.HIDDEN, ExerciseStatus.ARCHIVED):
        exercise.status = before_status
    audit.record(
        session,
        actor,
        exercise.course_id,
        "exercise.publish",
        exercise_id=exercise.id,
        before={"status": str(before_status), "version_id": before_version},
        after={"status": str(exercise.status), "version_id": version.id},
        version=version.content_hash[:10],
    )


def delete_refusal(session: Session, exercise: Exercise) -> str | None:
    """Why ``exercise`` may not be deleted, or None."""
    attempts, checks = submission_counts(session, exercise)
    if attempts or checks:
        return (
            f"students made {_submissions_named(attempts, checks)} on it, and deleting it "
            "would delete their history: hide or archive it instead"
        )
    return None


def delete_exercise(session: Session, actor: User, exercise: Exercise) -> None:
    """Delete ``exercise`` and its versions (flushed); raises :class:`LifecycleRefused`
    when anyone submitted to it."""
    refusal = delete_refusal(session, exercise)
    if refusal is not None:
        raise LifecycleRefused(refusal)
    # The audit event outlives the exercise: it names it in its details.
    audit.record(
        session,
        actor,
        exercise.course_id,
        "exercise.delete",
        slug=exercise.slug,
        title=exercise.title,
        status=str(exercise.status),
    )
    exercise.current_version_id = None
    session.flush()
    session.execute(
        delete(ExerciseVersion)
        .where(ExerciseVersion.exercise_id == exercise.id)
        .execution_options(synchronize_session=False)
    )
    session.delete(exercise)
    session.flush()
