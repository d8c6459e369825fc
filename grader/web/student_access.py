"""What a student may open: an exercise of their course, their own submission (or any of
their course's, for its instructors). Anything else is not found, never forbidden: a 403
would tell that it exists."""

from __future__ import annotations

from flask import abort
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from grader.models import Exercise, ExerciseStatus, Membership, Role, Submission
from grader.services import permissions
from grader.web.context import db_session


def visible_exercise(exercise_id: int) -> Exercise:
    """The exercise if the current user may see it, else 404 (never 403: no hints)."""
    # With its version and the user's membership of its course, in one statement.
    found = (
        db_session()
        .execute(
            select(Exercise, Membership.role)
            .outerjoin(
                Membership,
                (Membership.course_id == Exercise.course_id)
                & (Membership.user_id == current_user.id),
            )
            .where(Exercise.id == exercise_id)
            .options(joinedload(Exercise.current_version))
        )
        .first()
    )
    if found is None or found[0].current_version is None:
        abort(404)
    exercise, membership_role = found
    role = permissions.role_in_course(current_user, membership_role)
    # An archived exercise opens (read-only) for the students who submitted to it.
    submitted = (
        exercise.status == ExerciseStatus.ARCHIVED
        and role == Role.STUDENT
        and permissions.student_submitted(db_session(), current_user, exercise)
    )
    if not permissions.may_see_exercise(exercise, role, submitted=submitted):
        abort(404)
    return exercise


def visible_submission(submission_id: int) -> tuple[Submission, Exercise]:
    """The submission if it is the current user's (or they teach its course), else 404."""
    submission = db_session().get(Submission, submission_id)
    if submission is None:
        abort(404)
    exercise = db_session().get(Exercise, submission.exercise_id)
    if exercise is None:
        abort(404)
    if not permissions.may_see_submission(db_session(), current_user, submission, exercise):
        abort(404)
    return submission, exercise


def listed_exercises(course_ids: list[int]) -> list[Exercise]:
    """The exercises of ``course_ids`` the current user's list shows: the published ones,
    and the archived ones they submitted to (listed apart)."""
    mine = select(Submission.exercise_id).where(Submission.user_id == current_user.id)
    return list(
        db_session().scalars(
            select(Exercise).where(
                Exercise.course_id.in_(course_ids),
                Exercise.current_version_id.is_not(None),
                (Exercise.status == ExerciseStatus.PUBLISHED)
                | ((Exercise.status == ExerciseStatus.ARCHIVED) & Exercise.id.in_(mine)),
            )
        )
    )
