"""Who may see and change what (grader.services.permissions): an admin everything, a course's
instructors its exercises, submissions and integrations, a student the published
exercises of their courses and their own submissions, an outsider nothing."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, Integration, Role, Submission, User
from grader.services import permissions
from grader.services.submissions import submit
from tests.grader.conftest import UserFactory

SOURCE = "def alphabeta(node, depth, alpha, beta):\n    return 0\n"


def _people(make_user: UserFactory, course: Course, other: Course) -> dict[str, User]:
    return {
        "admin": make_user(Role.ADMIN),
        "instructor": make_user(Role.INSTRUCTOR, course=course),
        "other instructor": make_user(Role.INSTRUCTOR, course=other),
        "student": make_user(course=course),
        "classmate": make_user(course=course),
        "outsider": make_user(),
    }


def _other_course(database: Database) -> Course:
    with database.session() as session:
        other = Course(title="Another course", join_code="OTHER1")
        session.add(other)
    return other


def test_who_may_see_and_change_a_course_its_exercises_and_integrations(
    database: Database, course: Course, make_user: UserFactory
) -> None:
    people = _people(make_user, course, _other_course(database))
    with Session(database.engine) as session:
        exercise = session.scalars(select(Exercise).where(Exercise.course_id == course.id)).first()
        assert exercise is not None
        integration = Integration(course_id=course.id, name="LMS")
        changes = {
            name: (
                permissions.may_change_course(session, user, course.id),
                permissions.may_change_exercise(session, user, exercise),
                permissions.may_change_integration(session, user, integration),
            )
            for name, user in people.items()
        }
        roles = {
            name: permissions.course_role(session, user, course.id) for name, user in people.items()
        }
    assert {name for name, answers in changes.items() if all(answers)} == {"admin", "instructor"}
    assert {name for name, answers in changes.items() if any(answers)} == {"admin", "instructor"}
    assert roles == {
        "admin": Role.ADMIN,
        "instructor": Role.INSTRUCTOR,
        "other instructor": None,
        "student": Role.STUDENT,
        "classmate": Role.STUDENT,
        "outsider": None,
    }


def test_a_student_sees_published_exercises_only() -> None:
    published, draft = Exercise(published=True), Exercise(published=False)
    assert permissions.may_see_exercise(published, Role.STUDENT)
    assert not permissions.may_see_exercise(draft, Role.STUDENT)
    assert permissions.may_see_exercise(draft, Role.INSTRUCTOR)
    assert permissions.may_see_exercise(draft, Role.ADMIN)
    assert not permissions.may_see_exercise(published, None)


def test_a_submission_is_seen_by_its_author_and_the_course_s_teachers(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    people = _people(make_user, course, _other_course(database))
    with Session(database.engine) as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.published.is_(True))
        ).first()
        assert exercise is not None
        author = session.get(User, people["student"].id)
        assert author is not None
        submission: Submission = submit(session, settings, author, exercise, "a.py", SOURCE)
        seen = {
            name
            for name, user in people.items()
            if permissions.may_see_submission(session, user, submission, exercise)
        }
    assert seen == {"admin", "instructor", "student"}


def test_only_an_admin_has_every_role(make_user: UserFactory) -> None:
    admin, instructor, student = make_user(Role.ADMIN), make_user(Role.INSTRUCTOR), make_user()
    assert permissions.has_role(admin, Role.INSTRUCTOR) and permissions.has_role(admin)
    assert permissions.has_role(instructor, Role.INSTRUCTOR)
    assert not permissions.has_role(instructor)
    assert not permissions.has_role(student, Role.INSTRUCTOR)
