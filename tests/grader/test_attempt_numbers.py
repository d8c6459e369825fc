"""Attempt numbers are a student's own on an exercise, on SQLite and on PostgreSQL: the
database refuses a second attempt under a number (checks, numbered 0, are not attempts)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader.models import Exercise, Submission, User
from grader.models.submissions import SubmissionKind
from tests.grader.conftest import Backend

SLUG = "aima-fig5.2-alphabeta"
SOURCE = "def max_value(game, state, alpha, beta):\n    return 3\n"


def exercise_of(backend: Backend, session: Session) -> Exercise:
    return session.scalars(
        select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
    ).one()


def stored(session: Session, student: User, exercise: Exercise, attempt: int, **kw: Any) -> None:
    """A submission row as it is stored, numbered ``attempt``, without the service."""
    session.add(
        Submission(
            user_id=student.id,
            exercise_id=exercise.id,
            attempt=attempt,
            filename="a.py",
            source=SOURCE,
            **kw,
        )
    )
    session.flush()


def numbers(backend: Backend, student: User) -> list[int]:
    with backend.database.session() as session:
        found = session.scalars(
            select(Submission.attempt)
            .where(Submission.user_id == student.id, Submission.kind == SubmissionKind.ATTEMPT)
            .order_by(Submission.id)
        )
        return list(found)


# The database.


def test_the_database_refuses_a_second_attempt_under_a_number(backend: Backend) -> None:
    ada, bea = backend.user(), backend.user()
    with backend.database.session() as session:
        exercise = exercise_of(backend, session)
        stored(session, ada, exercise, 1)
        stored(session, bea, exercise, 1)  # another student's attempt 1
    with pytest.raises(IntegrityError), backend.database.session() as session:
        stored(session, ada, exercise_of(backend, session), 1)
    assert numbers(backend, ada) == [1]


def test_a_student_has_many_checks_all_numbered_0(backend: Backend) -> None:
    ada = backend.user()
    with backend.database.session() as session:
        exercise = exercise_of(backend, session)
        for _ in range(3):
            stored(session, ada, exercise, 0, kind=SubmissionKind.CHECK)
        stored(session, ada, exercise, 1)
    with backend.database.session() as session:
        kinds = session.execute(
            select(Submission.kind, Submission.attempt).where(Submission.user_id == ada.id)
        ).all()
    assert sorted(kinds) == [("attempt", 1), ("check", 0), ("check", 0), ("check", 0)]
