"""Regrades people can trust: previewed, then confirmed or cancelled.

Starting a regrade (:func:`start`) makes a :class:`~grader.models.Regrade` and one run per
student's latest attempt on the exercise's current version. Those runs are graded like any
run, in the slow lane, but they do not count (``counted`` False): no student, LMS or figure
hears of them. Once every run has finished the regrade is ready (:func:`refresh`, called by
whoever reads it: the transition happens on read, so the run services know nothing of
regrades) and :func:`summary` says whose grade would go up, down or stay, by
:mod:`grader.services.grades` with the preview's runs counted.

Confirming (:func:`confirm`) makes the runs that graded count (each becomes its
submission's latest run), tells each student whose grade changed with a notice, and sends
the LMS their new grades. A run that ended through our fault (``internal_error``) is no
grade: it stays uncounted, the summary says so, and the student's grade stays what it was.
Cancelling (:func:`cancel`) deletes the preview's runs (a worker still grading one finds it
gone and drops its result). One regrade per exercise is open at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from grader.models import (
    Exercise,
    GradingRun,
    Regrade,
    RegradeState,
    RunState,
    Submission,
    User,
    utcnow,
)
from grader.models.submissions import Lane, SubmissionKind
from grader.services import audit, grade_sync, notices
from grader.services.grades import StudentGrade, student_grades
from grader.services.tasks import DELIVER_TASK, GRADE_TASK
from grader.services.unit_of_work import Dispatcher
from reference.report import RunVerdict

OPEN = (RegradeState.PREVIEWING, RegradeState.READY)
SAME = 1e-9
"""Grades closer than this are the same grade."""


class RegradeRefused(Exception):
    """What cannot be done with a regrade now; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def open_regrade(session: Session, exercise_id: int) -> Regrade | None:
    """The exercise's regrade being previewed or waiting for a decision, if any."""
    return session.scalar(
        select(Regrade)
        .where(Regrade.exercise_id == exercise_id, Regrade.state.in_(OPEN))
        .order_by(Regrade.id.desc())
        .limit(1)
    )


def start(session: Session, queue: Dispatcher, actor: User, exercise: Exercise) -> Regrade:
    """A new regrade's preview of ``exercise``: an uncounted run in the slow lane for each
    student's latest attempt, on the current version, sent after the commit. Raises
    :class:`RegradeRefused` while another is open, without a current version, or when
    nobody has made an attempt."""
    # One open regrade per exercise: requests starting one wait for each other here.
    session.scalar(select(Exercise.id).where(Exercise.id == exercise.id).with_for_update())
    if open_regrade(session, exercise.id) is not None:
        raise RegradeRefused("a regrade of this exercise is open already: decide on it first")
    if exercise.current_version_id is None:
        raise RegradeRefused("no version of this exercise is published")
    latest = (
        select(func.max(Submission.id))
        .where(Submission.exercise_id == exercise.id, Submission.kind == SubmissionKind.ATTEMPT)
        .group_by(Submission.user_id)
    )
    submission_ids = list(
        session.scalars(
            select(Submission.id).where(Submission.id.in_(latest)).order_by(Submission.id)
        )
    )
    if not submission_ids:
        raise RegradeRefused("no student has made an attempt on this exercise")
    regrade = Regrade(
        exercise_id=exercise.id,
        version_id=exercise.current_version_id,
        state=RegradeState.PREVIEWING,
        requested_by_id=actor.id,
    )
    session.add(regrade)
    session.flush()
    # In the slow lane: a regrade of a whole exercise must not hold up students waiting
    # for their new submissions.
    runs = [
        GradingRun(
            submission_id=submission_id,
            exercise_version_id=exercise.current_version_id,
            lane=Lane.SLOW,
            counted=False,
            regrade_id=regrade.id,
        )
        for submission_id in submission_ids
    ]
    session.add_all(runs)
    session.flush()
    audit.record(
        session,
        actor,
        exercise.course_id,
        "regrade.start",
        exercise_id=exercise.id,
        regrade_id=regrade.id,
        version_id=exercise.current_version_id,
        runs=len(runs),
    )
    queue.dispatch(session, GRADE_TASK, [run.id for run in runs])
    return regrade


@dataclass(frozen=True, slots=True)
class Progress:
    total: int
    finished: int
    """Graded or ended in error."""
    errors: int
    """Ended through our fault (no grade)."""

    @property
    def done(self) -> bool:
        return self.finished >= self.total


def progress(session: Session, regrade: Regrade) -> Progress:
    """How far the preview's grading is, in one statement."""
    failed = (GradingRun.state == RunState.ERROR) | (
        GradingRun.verdict == RunVerdict.INTERNAL_ERROR
    )
    total, finished, errors = session.execute(
        select(
            func.count(),
            func.count().filter(GradingRun.state.in_((RunState.GRADED, RunState.ERROR))),
            func.count().filter(failed),
        ).where(GradingRun.regrade_id == regrade.id)
    ).one()
    return Progress(total, finished, errors)


def refresh(session: Session, regrade: Regrade) -> Progress:
    """The preview's progress; a preview whose runs have all finished becomes ready."""
    found = progress(session, regrade)
    if regrade.state == RegradeState.PREVIEWING and found.done:
        regrade.state = RegradeState.READY
        session.flush()
    return found


@dataclass(frozen=True, slots=True)
class Change:
    """One student's grade before and after the regrade (after the late policy and any
    override: :mod:`grader.services.grades`)."""

    user: User
    submission_id: int
    before: float | None
    after: float | None
    max_score: float | None
    error: bool = False
    """The student's preview run ended through our fault: their grade does not change."""

    @property
    def direction(self) -> str:
        """``up``, ``down``, ``same`` or ``error``."""
        if self.error:
            return "error"
        if _same(self.before, self.after):
            return "same"
        if self.before is None:
            return "up"
        if self.after is None:
            return "down"
        return "up" if self.after > self.before else "down"


@dataclass
class Summary:
    changes: list[Change] = field(default_factory=list)

    def having(self, direction: str) -> list[Change]:
        return [change for change in self.changes if change.direction == direction]

    @property
    def counts(self) -> dict[str, int]:
        return {name: len(self.having(name)) for name in ("up", "down", "same", "error")}


def _same(before: float | None, after: float | None) -> bool:
    if before is None or after is None:
        return before is after
    return abs(before - after) < SAME


def summary(session: Session, regrade: Regrade) -> Summary:
    """Each regraded student's grade now and with the preview confirmed, by name."""
    exercise = session.get(Exercise, regrade.exercise_id)
    assert exercise is not None
    runs = session.execute(
        select(GradingRun.submission_id, GradingRun.state, GradingRun.verdict, Submission.user_id)
        .join(Submission, Submission.id == GradingRun.submission_id)
        .where(GradingRun.regrade_id == regrade.id)
    ).all()
    user_ids = {row.user_id for row in runs}
    before = student_grades(session, exercise, user_ids)
    after = student_grades(session, exercise, user_ids, regrade_id=regrade.id)
    users = {user.id: user for user in session.scalars(select(User).where(User.id.in_(user_ids)))}
    changes = []
    for row in runs:
        error = row.state == RunState.ERROR or row.verdict == RunVerdict.INTERNAL_ERROR
        old, new = before[row.user_id], after[row.user_id]
        changes.append(
            Change(
                user=users[row.user_id],
                submission_id=row.submission_id,
                before=old.score,
                after=old.score if error else new.score,
                max_score=(new.max_score if new.max_score is not None else old.max_score),
                error=error,
            )
        )
    changes.sort(key=lambda change: (change.user.name.casefold(), change.user.id))
    return Summary(changes)


@dataclass(frozen=True, slots=True)
class Confirmed:
    changed: list[Change]
    counted: int
    """Preview runs that now count."""
    errors: int


def confirm(session: Session, queue: Dispatcher, actor: User, regrade: Regrade) -> Confirmed:
    """Make the preview's graded runs count, tell each student whose grade changed, and
    send the LMS their new grades (after the commit). Raises :class:`RegradeRefused`
    unless the regrade is ready, or when the exercise has another version since."""
    refresh(session, regrade)
    if regrade.state != RegradeState.READY:
        raise RegradeRefused(_not_open(regrade))
    exercise = session.get(Exercise, regrade.exercise_id)
    assert exercise is not None
    if exercise.current_version_id != regrade.version_id:
        raise RegradeRefused(
            "another version of the exercise was published since this preview: cancel it "
            "and start a new regrade"
        )
    before = summary(session, regrade)
    counted = session.execute(
        update(GradingRun)
        .where(
            GradingRun.regrade_id == regrade.id,
            GradingRun.state == RunState.GRADED,
            (GradingRun.verdict.is_(None)) | (GradingRun.verdict != RunVerdict.INTERNAL_ERROR),
        )
        .values(counted=True)
        .execution_options(synchronize_session=False)
    )
    session.expire_all()
    now = utcnow()
    regrade.state = RegradeState.CONFIRMED
    regrade.decided_at = now
    regrade.decided_by_id = actor.id
    session.flush()
    # What the grades are now, by the same rules: the notices say what students will see.
    grades = student_grades(session, exercise, [change.user.id for change in before.changes])
    changed = []
    for change in before.changes:
        grade = grades[change.user.id]
        if change.error or _same(change.before, grade.score):
            continue
        final = Change(change.user, change.submission_id, change.before, grade.score, _max(grade))
        changed.append(final)
        notices.add(
            session,
            user_id=change.user.id,
            exercise_id=exercise.id,
            submission_id=change.submission_id,
            kind="regrade",
            message=regrade_message(now, final),
        )
        audit.record(
            session,
            actor,
            exercise.course_id,
            "grade.regrade",
            exercise_id=exercise.id,
            subject_id=change.user.id,
            regrade_id=regrade.id,
            before=final.before,
            after=final.after,
        )
    audit.record(
        session,
        actor,
        exercise.course_id,
        "regrade.confirm",
        exercise_id=exercise.id,
        regrade_id=regrade.id,
        counted=counted.rowcount,  # type: ignore[attr-defined]
        changed=len(changed),
        errors=len(before.having("error")),
    )
    if changed:
        ids = grade_sync.grade_changed(
            session, exercise, [change.user.id for change in changed], reason="regrade"
        )
        queue.dispatch(session, DELIVER_TASK, ids)
    return Confirmed(changed, counted.rowcount, len(before.having("error")))  # type: ignore[attr-defined]


def _max(grade: StudentGrade) -> float | None:
    return grade.max_score


def cancel(session: Session, actor: User, regrade: Regrade) -> int:
    """Cancel an open regrade: its preview runs are deleted (how many is returned)."""
    if regrade.state not in OPEN:
        raise RegradeRefused(_not_open(regrade))
    deleted = session.execute(
        delete(GradingRun)
        .where(GradingRun.regrade_id == regrade.id)
        .execution_options(synchronize_session=False)
    )
    regrade.state = RegradeState.CANCELLED
    regrade.decided_at = utcnow()
    regrade.decided_by_id = actor.id
    exercise = session.get(Exercise, regrade.exercise_id)
    assert exercise is not None
    audit.record(
        session,
        actor,
        exercise.course_id,
        "regrade.cancel",
        exercise_id=exercise.id,
        regrade_id=regrade.id,
        runs=deleted.rowcount,  # type: ignore[attr-defined]
    )
    session.expire_all()
    return int(deleted.rowcount)  # type: ignore[attr-defined]


def _not_open(regrade: Regrade) -> str:
    if regrade.state == RegradeState.PREVIEWING:
        return "its preview is still being graded"
    return f"this regrade was {regrade.state} already"


def points(value: float | None) -> str:
    """A grade as a notice says it: one decimal ("63.8"), "no grade" for None."""
    return "no grade" if value is None else f"{value:.1f}"


def regrade_message(when: datetime, change: Change) -> str:
    """ "Regraded on 27 Nov 2026 after the exercise changed: 63.8 → 70.0 (out of 100)."."""
    before, after = points(change.before), points(change.after)
    if before == after:
        # A change below the first decimal still shows.
        before, after = f"{change.before:g}", f"{change.after:g}"
    out_of = "" if change.max_score is None else f" (out of {change.max_score:g})"
    return (
        f"Regraded on {when.day} {when:%b %Y} after the exercise changed: "
        f"{before} → {after}{out_of}."
    )
