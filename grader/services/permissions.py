"""Who may see and change what: courses, exercises, submissions, integrations, deliveries.

One answer for each question, asked by every view. An admin may see and change
everything; a course's instructors may see and change what belongs to it; a student sees
the published exercises of their courses and their own submissions. Views answer 404 for
what the user may not see (never 403: no hints that it exists); 403 is for a page the
user's role does not open at all (see :func:`has_role`).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import Course, Exercise, Integration, Membership, Role, Submission, User


def has_role(user: User, *roles: str) -> bool:
    """Whether ``user``'s own role is one of ``roles`` (an admin has every role)."""
    return user.role == Role.ADMIN or user.role in roles


def role_in_course(user: User, membership_role: str | None) -> str | None:
    """``user``'s role in a course where their membership's role is ``membership_role``
    (None: not a member): an admin is "admin" everywhere."""
    return Role.ADMIN if user.role == Role.ADMIN else membership_role


def course_role(session: Session, user: User, course_id: int) -> str | None:
    """``user``'s role in course ``course_id``, None when outside it."""
    membership_role = session.scalar(
        select(Membership.role).where(
            Membership.user_id == user.id, Membership.course_id == course_id
        )
    )
    return role_in_course(user, membership_role)


def may_see_exercise(exercise: Exercise, role: str | None) -> bool:
    """Whether someone whose role in the exercise's course is ``role`` may see it (a
    student sees only published exercises)."""
    return role is not None and (role != Role.STUDENT or exercise.published)


def may_see_submission(
    session: Session, user: User, submission: Submission, exercise: Exercise
) -> bool:
    """Whether ``user`` may see ``submission`` (of ``exercise``): their own, or one of a
    course they teach."""
    if submission.user_id == user.id:
        return True
    return course_role(session, user, exercise.course_id) in (Role.ADMIN, Role.INSTRUCTOR)


def may_review_submission(
    session: Session, user: User, submission: Submission, exercise: Exercise
) -> bool:
    """Whether ``user`` may open ``submission`` (of ``exercise``) as its course's staff do
    (the student's name, every attempt, the grade override): its course's instructors and
    admins only, never its student as such."""
    if submission.exercise_id != exercise.id:
        return False
    return may_change_course(session, user, exercise.course_id)


def may_change_course(session: Session, user: User, course_id: int) -> bool:
    """Whether ``user`` may change course ``course_id`` (its exercises, integrations,
    deliveries): an admin, or one of its instructors."""
    if user.role == Role.ADMIN:
        return True
    found = session.scalar(
        select(Membership.id).where(
            Membership.user_id == user.id,
            Membership.course_id == course_id,
            Membership.role == Role.INSTRUCTOR,
        )
    )
    return found is not None


def may_change_exercise(session: Session, user: User, exercise: Exercise) -> bool:
    """Whether ``user`` may change ``exercise`` (upload, publish, regrade, read grades)."""
    return may_change_course(session, user, exercise.course_id)


def may_change_integration(session: Session, user: User, integration: Integration) -> bool:
    """Whether ``user`` may see and change ``integration`` (its secrets, hosts, deliveries)."""
    return may_change_course(session, user, integration.course_id)


def taught_courses(session: Session, user: User) -> list[Course]:
    """The courses ``user`` may change (every course for an admin), by title."""
    query = select(Course).order_by(Course.title, Course.id)
    if user.role != Role.ADMIN:
        query = query.join(Membership).where(
            Membership.user_id == user.id, Membership.role == Role.INSTRUCTOR
        )
    return list(session.scalars(query))
