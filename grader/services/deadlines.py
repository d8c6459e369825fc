"""Changing an exercise's dates and late policy, and granting or removing a student's
extension: each change is checked, written to the audit log, told to the students it
concerns (a :class:`~grader.models.Notice`) and, where it moves a grade, sent to the LMS
(:func:`grader.services.grade_sync.grade_changed`).

What a date or a policy does to a score is :mod:`grader.services.grades`' business; this
module only changes them and says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import (
    Exercise,
    Extension,
    LatePolicy,
    Membership,
    Notice,
    Role,
    User,
)
from grader.models.base import aware
from grader.services import audit
from grader.services.grades import Deadline, student_grades

LTI_ORIGIN = "lti"
INSTRUCTOR_ORIGIN = "instructor"


@dataclass(frozen=True, slots=True)
class Rules:
    """An exercise's dates and late policy, as an instructor sets them."""

    opens_at: datetime | None
    due_at: datetime | None
    policy: LatePolicy
    penalty_per_day: float
    penalty_cap: float

    @classmethod
    def of(cls, exercise: Exercise) -> Rules:
        return cls(
            opens_at=None if exercise.opens_at is None else aware(exercise.opens_at),
            due_at=None if exercise.due_at is None else aware(exercise.due_at),
            policy=LatePolicy(exercise.late_policy or LatePolicy.NONE),
            penalty_per_day=exercise.late_penalty_per_day or 0.0,
            penalty_cap=100.0 if exercise.late_penalty_cap is None else exercise.late_penalty_cap,
        )

    def document(self) -> dict[str, Any]:
        """The rules as JSON (for the audit log)."""
        return {
            "opens_at": _iso(self.opens_at),
            "due_at": _iso(self.due_at),
            "late_policy": str(self.policy),
            "late_penalty_per_day": self.penalty_per_day,
            "late_penalty_cap": self.penalty_cap,
        }


def problems(rules: Rules) -> dict[str, str]:
    """What is wrong with ``rules``, by field name (empty: nothing)."""
    found: dict[str, str] = {}
    if rules.opens_at is not None and rules.due_at is not None and rules.due_at <= rules.opens_at:
        found["due_at"] = "The due date must come after the opening."
    for name, value, label in (
        ("penalty_per_day", rules.penalty_per_day, "The penalty per day"),
        ("penalty_cap", rules.penalty_cap, "The cap"),
    ):
        if not 0.0 <= value <= 100.0:
            found[name] = f"{label} must be between 0 and 100 %."
    return found


def policy_words(deadline: Deadline) -> str:
    """The late policy in a sentence for students."""
    if deadline.policy == LatePolicy.REFUSE:
        return "No late submissions: submitting closes at the due date."
    if deadline.policy == LatePolicy.PENALTY and deadline.penalty_per_day > 0:
        per_day = f"{deadline.penalty_per_day:g} %"
        if deadline.penalty_cap < 100.0:
            return f"Late submissions lose {per_day} per day, at most {deadline.penalty_cap:g} %."
        return f"Late submissions lose {per_day} per day."
    return "Late submissions are accepted and marked late, without a penalty."


def set_rules(session: Session, exercise: Exercise, actor: User, rules: Rules) -> list[int]:
    """Give ``exercise`` the (checked) ``rules``, set by an instructor; the ids of the LMS
    deliveries to send after the commit. Nothing changes and nothing is logged when the
    rules are the same."""
    assert not problems(rules), problems(rules)
    before = Rules.of(exercise)
    if rules == before and exercise.due_origin in (INSTRUCTOR_ORIGIN, None):
        return []
    scores = _scores(session, exercise)
    exercise.opens_at, exercise.due_at = rules.opens_at, rules.due_at
    exercise.late_policy = rules.policy
    exercise.late_penalty_per_day, exercise.late_penalty_cap = (
        rules.penalty_per_day,
        rules.penalty_cap,
    )
    origin_before = exercise.due_origin
    exercise.due_origin = INSTRUCTOR_ORIGIN if rules.due_at is not None else None
    audit.record(
        session,
        actor,
        exercise.course_id,
        "exercise.deadline",
        exercise_id=exercise.id,
        before={**before.document(), "due_origin": origin_before},
        after={**rules.document(), "due_origin": exercise.due_origin},
    )
    message = f"The dates of {exercise.title} changed: {summary(rules)}"
    _tell(session, exercise, _students(session, exercise.course_id), "deadline", message)
    return _sync(session, exercise, scores, "deadline")


def set_lti_due(
    session: Session, exercise: Exercise, due_at: datetime, source: str = "lti launch"
) -> list[int]:
    """The due date an LTI launch carries (``source``: the launch itself, or its line
    item), kept unless an instructor set one (theirs always wins); the ids of the LMS
    deliveries to send after the commit."""
    due_at = aware(due_at).astimezone(UTC)  # SQLite would keep another zone's digits as UTC
    if exercise.due_origin == INSTRUCTOR_ORIGIN:
        return []
    if exercise.due_at is not None and aware(exercise.due_at) == due_at:
        return []
    if exercise.opens_at is not None and due_at <= aware(exercise.opens_at):
        return []  # a platform's date before the opening would close the exercise unseen
    scores = _scores(session, exercise)
    before = _iso(exercise.due_at)
    exercise.due_at, exercise.due_origin = due_at, LTI_ORIGIN
    audit.record(
        session,
        None,
        exercise.course_id,
        "exercise.deadline",
        exercise_id=exercise.id,
        before={"due_at": before},
        after={"due_at": _iso(due_at), "due_origin": LTI_ORIGIN},
        source=source,
    )
    return _sync(session, exercise, scores, "deadline")


def grant_extension(
    session: Session,
    exercise: Exercise,
    actor: User,
    student_id: int,
    due_at: datetime,
    reason: str,
) -> list[int]:
    """Give student ``student_id`` their own due date on ``exercise`` (replacing an earlier
    extension); the ids of the LMS deliveries to send after the commit."""
    due_at = aware(due_at)
    scores = _scores(session, exercise)
    extension = session.scalar(
        select(Extension).where(
            Extension.exercise_id == exercise.id, Extension.user_id == student_id
        )
    )
    before = None if extension is None else _iso(extension.due_at)
    if extension is None:
        extension = Extension(exercise_id=exercise.id, user_id=student_id, due_at=due_at)
        session.add(extension)
    extension.due_at, extension.reason, extension.granted_by_id = due_at, reason, actor.id
    session.flush()
    audit.record(
        session,
        actor,
        exercise.course_id,
        "extension.grant",
        exercise_id=exercise.id,
        subject_id=student_id,
        before=before,
        after=_iso(due_at),
        reason=reason,
    )
    message = f"You have an extension on {exercise.title}: it is due {_words(due_at)}."
    _tell(session, exercise, [student_id], "extension", message)
    return _sync(session, exercise, scores, "extension")


def remove_extension(
    session: Session, exercise: Exercise, actor: User, extension: Extension
) -> list[int]:
    """Take a student's extension away; the ids of the LMS deliveries to send after the
    commit."""
    scores = _scores(session, exercise)
    student_id = extension.user_id
    audit.record(
        session,
        actor,
        exercise.course_id,
        "extension.remove",
        exercise_id=exercise.id,
        subject_id=student_id,
        before=_iso(extension.due_at),
        after=None,
        reason=extension.reason,
    )
    session.delete(extension)
    session.flush()
    due = "has no due date" if exercise.due_at is None else f"is due {_words(exercise.due_at)}"
    message = f"Your extension on {exercise.title} was removed: it {due}."
    _tell(session, exercise, [student_id], "extension", message)
    return _sync(session, exercise, scores, "extension")


def summary(rules: Rules) -> str:
    """The rules in words (UTC), for notices."""
    parts = []
    if rules.opens_at is not None:
        parts.append(f"opens {_words(rules.opens_at)}")
    parts.append("no due date" if rules.due_at is None else f"due {_words(rules.due_at)}")
    if rules.due_at is not None:
        deadline = Deadline(
            rules.opens_at, rules.due_at, rules.policy, rules.penalty_per_day, rules.penalty_cap
        )
        parts.append(policy_words(deadline).rstrip(".").lower())
    return "; ".join(parts) + "."


# -- helpers ---------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else aware(moment).isoformat(timespec="seconds")


def _words(moment: datetime) -> str:
    return f"{aware(moment):%a %d %b %Y, %H:%M} UTC"


def _students(session: Session, course_id: int) -> list[int]:
    return list(
        session.scalars(
            select(Membership.user_id).where(
                Membership.course_id == course_id, Membership.role == Role.STUDENT
            )
        )
    )


def _tell(
    session: Session, exercise: Exercise, user_ids: Iterable[int], kind: str, message: str
) -> None:
    session.add_all(
        Notice(user_id=user_id, exercise_id=exercise.id, kind=kind, message=message)
        for user_id in user_ids
    )
    session.flush()


Scores = dict[int, tuple[float | None, float | None]]


def _scores(session: Session, exercise: Exercise) -> Scores:
    """Each student's grade and its maximum, as they stand."""
    return {
        user_id: (grade.score, grade.max_score)
        for user_id, grade in student_grades(session, exercise).items()
    }


def _sync(session: Session, exercise: Exercise, before: Scores, reason: str) -> list[int]:
    """The deliveries for the students whose grade ``before`` is no longer their grade."""
    session.flush()
    after = _scores(session, exercise)
    changed = sorted(
        user_id
        for user_id in before.keys() | after.keys()
        if before.get(user_id) != after.get(user_id)
    )
    if not changed:
        return []
    # Imported here: grade_sync builds the LMS payloads (callbacks, LTI scores), and the
    # LTI launch, which imports this module, is imported by those.
    from grader.services import grade_sync

    return grade_sync.grade_changed(session, exercise, changed, reason)
