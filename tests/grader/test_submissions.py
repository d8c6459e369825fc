"""Accepting submissions: the source checks, attempt numbers and the rate limits."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, GradingRun, RunState, utcnow
from grader.services.submissions import SubmissionRefused, decode_source, standing, submit
from tests.grader.conftest import UserFactory

SOURCE = "def max_value(game, state, alpha, beta):\n    return 3\n"


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        (b"", 400, "empty"),
        (b"  \n\n", 400, "empty"),
        (b"x = 1\n\x00\x01", 400, "binary"),
        (b"x = 1\ny = '\xff'\n", 400, "line 2"),
        (b"#" * 101, 413, "limit is 100 bytes"),
    ],
)
def test_bad_sources_are_refused_with_a_reason(data: bytes, status: int, words: str) -> None:
    with pytest.raises(SubmissionRefused) as refused:
        decode_source(data, limit=100)
    assert refused.value.status == status
    assert words in refused.value.message


def test_a_good_source_is_decoded() -> None:
    assert decode_source("# é\n".encode(), limit=100) == "# é\n"


def _exercise(database: Database, course: Course) -> Exercise:
    with database.session() as session:
        found = session.scalar(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        )
        assert found is not None
        return found


def test_attempts_are_numbered_and_infrastructure_failures_do_not_count(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    exercise = _exercise(database, course)
    with database.session() as session:
        first = submit(session, settings, student, exercise, "a.py", SOURCE)
        second = submit(session, settings, student, exercise, "../../b", SOURCE)
    assert (first.attempt, second.attempt) == (1, 2)
    assert second.filename == "b.py"
    with database.session() as session:
        run = session.scalars(select(GradingRun).where(GradingRun.submission_id == second.id)).one()
        run.state, run.verdict = RunState.ERROR, "internal_error"
    with database.session() as session:
        third = submit(session, settings, student, exercise, "c.py", SOURCE)
    assert third.attempt == 3  # the spoiled attempt keeps its number, never given again
    with database.session() as session:
        assert standing(session, settings, student.id, exercise.id).attempts == 2  # 1 and 3


def test_minimum_gap_between_submissions(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    settings = replace(settings, submission_min_gap_seconds=60)
    student = make_user(course=course)
    exercise = _exercise(database, course)
    now = utcnow()
    with database.session() as session:
        submit(session, settings, student, exercise, "a.py", SOURCE, now=now)
    with database.session() as session, pytest.raises(SubmissionRefused) as refused:
        submit(session, settings, student, exercise, "a.py", SOURCE, now=now + timedelta(seconds=5))
    assert refused.value.status == 429
    assert refused.value.retry_at == now + timedelta(seconds=60)
    with database.session() as session:
        later = now + timedelta(seconds=61)
        assert standing(session, settings, student.id, exercise.id, later).next_allowed is None
        submit(session, settings, student, exercise, "a.py", SOURCE, now=later)


def test_submissions_per_hour(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    settings = replace(settings, submissions_per_hour=3)
    student, other = make_user(course=course), make_user(course=course)
    exercise = _exercise(database, course)
    start = utcnow()
    with database.session() as session:
        for minute in range(3):
            submit(
                session,
                settings,
                student,
                exercise,
                "a.py",
                SOURCE,
                now=start + timedelta(minutes=minute),
            )
    with database.session() as session:
        when = start + timedelta(minutes=10)
        allowed = standing(session, settings, student.id, exercise.id, when).next_allowed
        assert allowed == start + timedelta(hours=1)
        # Another student is not limited by this one.
        assert standing(session, settings, other.id, exercise.id, when).next_allowed is None


def test_unpublished_exercise_takes_no_submissions(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    exercise = _exercise(database, course)
    with database.session() as session:
        session.get(Exercise, exercise.id).published = False  # type: ignore[union-attr]
    exercise.published = False
    with database.session() as session, pytest.raises(SubmissionRefused) as refused:
        submit(session, settings, student, exercise, "a.py", SOURCE)
    assert refused.value.status == 404
