"""What students reach of an exercise in each status, through the real app: the list
(grouped by section, in order; archived ones apart), the exercise page, submitting, their
submissions' pages; and the LMS's webhook, which submits only to a published exercise."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lms.problems import Problem
from grader.models import Course, Exercise, ExerciseStatus, Integration, Role, Section, User
from grader.services.submissions import submit
from tests.grader.conftest import UserFactory, csrf_token, login

SLUG = "aima-fig5.2-alphabeta"


def _set(database: Database, course: Course, slug: str, **values: object) -> int:
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        for name, value in values.items():
            setattr(exercise, name, value)
        return exercise.id


def _submitted(database: Database, settings: Settings, course: Course, user: User) -> int:
    """An attempt of ``user``'s on Figure 5.2 (left queued: its page works without a run)."""
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        return submit(session, settings, user, exercise, "a.py", "x = 1\n").id


def _listed(page: str) -> list[str]:
    """The exercise links of the home page, in order, and the headings between them."""
    found = re.findall(r'<h3 class="section-title">([^<]+)</h3>|<a href="/exercises/(\d+)">', page)
    return [heading or f"#{number}" for heading, number in found]


def test_a_hidden_exercise_is_gone_from_the_list_but_the_student_s_submissions_stay(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    student = make_user(course=course)
    attempt = _submitted(database, settings, course, student)
    exercise = _set(database, course, SLUG, status=ExerciseStatus.HIDDEN)
    login(client, student)

    assert f'href="/exercises/{exercise}"' not in client.get("/").get_data(as_text=True)
    assert client.get(f"/exercises/{exercise}").status_code == 404
    assert client.get(f"/exercises/{exercise}/starter.py").status_code == 404
    token = csrf_token(client)
    posted = client.post(
        f"/exercises/{exercise}/submissions", data={"csrf_token": token, "pasted": "x = 1\n"}
    )
    assert posted.status_code == 404
    page = client.get(f"/submissions/{attempt}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'href="/exercises/{exercise}' not in text  # neither the crumbs nor "submit again"
    assert "takes no new submissions" in text
    assert client.get(f"/submissions/{attempt}/status").status_code == 200


def test_an_archived_exercise_is_listed_apart_read_only_for_those_who_submitted(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    student, newcomer = make_user(course=course), make_user(course=course)
    attempt = _submitted(database, settings, course, student)
    exercise = _set(database, course, SLUG, status=ExerciseStatus.ARCHIVED)
    login(client, student)

    listed = _listed(client.get("/").get_data(as_text=True))
    assert listed[-2:] == ["Archived", f"#{exercise}"]
    page = client.get(f"/exercises/{exercise}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "This exercise is archived: it takes no new submissions" in text
    assert f'action="/exercises/{exercise}/submissions"' not in text
    assert f'href="/submissions/{attempt}"' in text  # the student's history
    posted = client.post(
        f"/exercises/{exercise}/submissions",
        data={"csrf_token": csrf_token(client), "pasted": "x = 1\n"},
    )
    assert posted.status_code == 404
    assert "not open for submissions" in posted.get_data(as_text=True)

    login(client, newcomer)
    assert f'href="/exercises/{exercise}"' not in client.get("/").get_data(as_text=True)
    assert client.get(f"/exercises/{exercise}").status_code == 404


def test_a_draft_is_never_shown_to_students(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    exercise = _set(database, course, SLUG, status=ExerciseStatus.DRAFT)
    login(client, student)
    assert f'href="/exercises/{exercise}"' not in client.get("/").get_data(as_text=True)
    assert client.get(f"/exercises/{exercise}").status_code == 404
    login(client, make_user(Role.INSTRUCTOR, course))
    assert client.get(f"/exercises/{exercise}").status_code == 200


def test_the_list_follows_the_sections_and_the_order_not_the_alphabet(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    with database.session() as session:
        week1 = Section(course_id=course.id, title="Week 1", position=0)
        week2 = Section(course_id=course.id, title="Week 2", position=1)
        session.add_all([week1, week2])
        session.flush()
        exercises = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id).order_by(Exercise.slug)
        ).all()
        first, second, third = exercises[:3]
        # Week 2 first in the list of sections? No: by position. Inside, by position.
        second.section_id, second.position = week1.id, 1
        third.section_id, third.position = week1.id, 0
        first.section_id = week2.id
        loose = [e.id for e in exercises[3:]]
        order = [third.id, second.id, first.id]
    login(client, make_user(course=course))

    listed = _listed(client.get("/").get_data(as_text=True))

    expected = ["Week 1", f"#{order[0]}", f"#{order[1]}", "Week 2", f"#{order[2]}"]
    assert listed[:5] == expected
    if loose:
        assert listed[5] == "Other exercises"
        assert sorted(listed[6:]) == sorted(f"#{number}" for number in loose)


def test_the_webhook_submits_only_to_a_published_exercise(
    database: Database, course: Course
) -> None:
    from grader.lms.intake import _exercise

    with database.session() as session:
        integration = Integration(
            course_id=course.id, name="LMS", secret="s" * 32, allowed_hosts=[], token_hash="t" * 64
        )
        session.add(integration)
        session.flush()
        assert _exercise(session, integration, SLUG).slug == SLUG
    for status in (ExerciseStatus.HIDDEN, ExerciseStatus.ARCHIVED, ExerciseStatus.DRAFT):
        _set(database, course, SLUG, status=status)
        with database.session() as session:
            integration = session.scalars(select(Integration)).one()
            with pytest.raises(Problem, match="no published exercise"):
                _exercise(session, integration, SLUG)
