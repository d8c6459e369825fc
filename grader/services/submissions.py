"""Accepting a student's submission: the source's checks, the rate limit, the attempt number.

A submission whose run failed through our fault (``internal_error``) does not count towards
the limits; it keeps its attempt number all the same: a number is a student's attempt's own,
never given to a second one (the database's unique index ``ATTEMPT_NUMBERS`` holds to it).

A check (:attr:`SubmissionKind.CHECK`) is a draft graded on the public trees only: it takes
no attempt number (its ``attempt`` is 0), counts towards none of the attempts' limits, and
has limits of its own, looser (``Settings.checks_per_hour``, ``check_min_gap_seconds``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Select, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import lock_for_update
from grader.models import Exercise, GradingRun, RunState, Submission, User, utcnow
from grader.models.base import aware
from grader.models.submissions import ATTEMPT_NUMBERS, Lane, SubmissionKind
from grader.services.grades import deadline_for
from reference.report import RunVerdict

log = logging.getLogger(__name__)

NUMBER_TRIES = 3
"""Tries a submit makes to store an attempt under a number of its own before it asks the
student to submit again (503)."""
BUSY_RETRY = timedelta(seconds=2)
"""When a submit that gave up says to try again."""


class SubmissionRefused(Exception):
    """The submission cannot be accepted; ``message`` says why in words for the student."""

    def __init__(self, message: str, *, status: int = 400, retry_at: datetime | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_at = retry_at


def decode_source(data: bytes, limit: int) -> str:
    """The text of an uploaded or pasted file, or SubmissionRefused saying what is wrong."""
    if len(data) > limit:
        raise SubmissionRefused(
            f"the file has {len(data):,} bytes; the limit is {limit:,} bytes", status=413
        )
    if not data.strip():
        raise SubmissionRefused("the file is empty")
    if b"\0" in data:
        raise SubmissionRefused("the file is binary (it contains NUL bytes), not Python source")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SubmissionRefused(
            f"the file is not UTF-8 text: line {line} holds the byte 0x{data[error.start]:02x}"
        ) from None


def _counted(
    user_id: int, exercise_id: int, kind: SubmissionKind = SubmissionKind.ATTEMPT
) -> Select[datetime]:
    """When each submission of ``kind`` of ``user_id`` on ``exercise_id`` that counts was
    made: all but those spoiled by us (a run ended as ``internal_error`` and no run graded
    it). The runs are looked up by submission (indexed), never scanned."""
    failed_by_us = (
        select(GradingRun.id)
        .where(
            GradingRun.submission_id == Submission.id,
            GradingRun.counted.is_(True),
            GradingRun.verdict == RunVerdict.INTERNAL_ERROR,
        )
        .exists()
    )
    graded = (
        select(GradingRun.id)
        .where(
            GradingRun.submission_id == Submission.id,
            GradingRun.counted.is_(True),
            GradingRun.verdict.is_not(None),
            GradingRun.verdict != RunVerdict.INTERNAL_ERROR,
        )
        .exists()
    )
    return select(Submission.created_at).where(
        Submission.user_id == user_id,
        Submission.exercise_id == exercise_id,
        Submission.kind == kind,
        ~(failed_by_us & ~graded),
    )


@dataclass(frozen=True, slots=True)
class Attempts:
    """A student's attempts (or checks) on an exercise: how many count, and when the next
    is allowed."""

    attempts: int
    next_allowed: datetime | None
    """None: now."""


def standing(
    session: Session,
    settings: Settings,
    user_id: int,
    exercise_id: int,
    now: datetime | None = None,
    kind: SubmissionKind = SubmissionKind.ATTEMPT,
) -> Attempts:
    """The student's :class:`Attempts` on the exercise (or their checks, under the checks'
    own limits), read in one statement."""
    now = now or utcnow()
    if kind == SubmissionKind.CHECK:
        hourly_limit, min_gap = settings.checks_per_hour, settings.check_min_gap_seconds
    else:
        hourly_limit, min_gap = settings.submissions_per_hour, settings.submission_min_gap_seconds
    counted = _counted(user_id, exercise_id, kind).cte("counted")  # read once, used twice
    # The last submission the hourly limit allows: the next is allowed an hour after it.
    per_hour = max(hourly_limit, 1)
    limiting = (
        select(counted.c.created_at)
        .where(counted.c.created_at > now - timedelta(hours=1))
        .order_by(counted.c.created_at.desc())
        .offset(per_hour - 1)
        .limit(1)
        .scalar_subquery()
    )
    attempts, last, hourly = session.execute(
        select(func.count(), func.max(counted.c.created_at), limiting).select_from(counted)
    ).one()
    waits: list[datetime] = []
    if last is not None and min_gap > 0:
        waits.append(aware(last) + timedelta(seconds=min_gap))
    if hourly is not None and hourly_limit > 0:
        waits.append(aware(hourly) + timedelta(hours=1))
    allowed = max(waits, default=None)
    return Attempts(attempts, allowed if allowed is not None and allowed > now else None)


def submit(
    session: Session,
    settings: Settings,
    user: User,
    exercise: Exercise,
    filename: str,
    source: str,
    *,
    origin: str = "web",
    now: datetime | None = None,
    kind: SubmissionKind = SubmissionKind.ATTEMPT,
) -> Submission:
    """A new submission with its queued run, ``submission.runs[0]`` (flushed, not
    committed: enqueue after commit); of ``kind``, under that kind's limits.

    Each try is made in a savepoint: a try whose attempt number was stored by another
    transaction meanwhile is undone alone, and the next reads the student's attempts and
    limits again. SubmissionRefused (503) when every try met a number taken."""
    version_id = exercise.current_version_id
    if not exercise.published or version_id is None:
        raise SubmissionRefused("this exercise is not open for submissions", status=404)
    # One student's submissions are made one after the other, each reading the ones before
    # it, so that two at once cannot both pass the limits nor take the same number.
    lock_for_update(session, User.id, user.id)
    for _ in range(NUMBER_TRIES):
        moment = now or utcnow()
        try:
            with session.begin_nested():
                submission = Submission(
                    user_id=user.id,
                    exercise_id=exercise.id,
                    attempt=_admit(session, settings, user, exercise, moment, kind),
                    kind=kind,
                    filename=_plain_name(filename),
                    source=source,
                    origin=origin,
                    created_at=moment,
                )
                return _queued(session, submission, version_id)
        except IntegrityError as error:
            if not _number_taken(error):
                raise
            # Another transaction stored the number after this one read the last (the lock
            # above leaves that to writers that do not take it): read again.
            log.warning(
                "user %s, exercise %s: the attempt number was taken meanwhile; trying again",
                user.id,
                exercise.id,
            )
    raise SubmissionRefused(
        "other submissions of yours arrived at the same moment; submit again in a moment",
        status=503,
        retry_at=utcnow() + BUSY_RETRY,
    )


def _admit(
    session: Session,
    settings: Settings,
    user: User,
    exercise: Exercise,
    now: datetime,
    kind: SubmissionKind,
) -> int:
    """The attempt number of the student's new submission of ``kind`` (0 for a check), or
    SubmissionRefused when the deadline or the limits refuse it."""
    if kind == SubmissionKind.ATTEMPT:
        refused = deadline_for(session, exercise, user.id).refuses(now)
        if refused is not None:
            raise SubmissionRefused(refused, status=403)
    current = standing(session, settings, user.id, exercise.id, now, kind)
    if current.next_allowed is not None:
        retry_at = current.next_allowed
        verb = "check" if kind == SubmissionKind.CHECK else "submit"
        raise SubmissionRefused(
            f"you can {verb} again at {retry_at:%H:%M:%S} UTC", status=429, retry_at=retry_at
        )
    if kind == SubmissionKind.CHECK:
        return 0
    # One more than the last, counted or not: a spoiled attempt keeps its number.
    last = session.scalar(
        select(func.max(Submission.attempt)).where(
            Submission.user_id == user.id,
            Submission.exercise_id == exercise.id,
            Submission.kind == SubmissionKind.ATTEMPT,
        )
    )
    return (last or 0) + 1


def _queued(session: Session, submission: Submission, version_id: int) -> Submission:
    """``submission`` with its run queued against ``version_id``, flushed."""
    run = GradingRun(
        submission=submission,
        exercise_version_id=version_id,
        state=RunState.QUEUED,
        queued_at=submission.created_at,
        lane=lane_for(session, submission.user_id),
    )
    session.add_all([submission, run])
    session.flush()
    return submission


def _number_taken(error: IntegrityError) -> bool:
    """Whether ``error`` is ``ATTEMPT_NUMBERS`` refusing a number (PostgreSQL names the
    index, SQLite its columns)."""
    said = str(error.orig)
    return ATTEMPT_NUMBERS in said or "submissions.exercise_id, submissions.attempt" in said


def lane_for(session: Session, user_id: int) -> Lane:
    """The lane of a new run of ``user_id``'s: the slow one when a run of theirs is already
    waiting or being graded, so that it waits behind other students' first runs. A
    regrade's preview run is not theirs to wait for: it does not count."""
    busy = session.scalar(
        select(GradingRun.id)
        .join(Submission)
        .where(
            Submission.user_id == user_id,
            GradingRun.counted.is_(True),
            GradingRun.state.in_([RunState.QUEUED, RunState.RUNNING]),
        )
        .limit(1)
    )
    return Lane.FAST if busy is None else Lane.SLOW


def _plain_name(filename: str) -> str:
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name.endswith(".py"):
        name = (name or "submission") + ".py"
    return name[:200]
