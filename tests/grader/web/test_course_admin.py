"""The instructors' page of a course's exercises: sections, order, status and deletion by
small forms (CSRF), for the course's instructors only; refusals say why."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import AuditEvent, Course, Exercise, ExerciseStatus, Role, Section
from grader.services.submissions import submit
from tests.grader.conftest import UserFactory, csrf_token, login

SLUG = "aima-fig5.2-alphabeta"


def _exercise(database: Database, course: Course, slug: str = SLUG) -> Exercise:
    with database.session() as session:
        found = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        session.expunge(found)
        return found


def _post(client: FlaskClient, url: str, **data: str) -> str:
    response = client.post(url, data={"csrf_token": csrf_token(client), **data})
    assert response.status_code == 302, response.get_data(as_text=True)
    return html.unescape(client.get(response.headers["Location"]).get_data(as_text=True))


def test_an_instructor_makes_sections_and_orders_exercises_by_buttons(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    page = _post(client, f"/teach/courses/{course.id}/sections", title="Week 1")
    assert "Made section “Week 1”." in page
    _post(client, f"/teach/courses/{course.id}/sections", title="Week 2")
    with database.session() as session:
        week1, week2 = session.scalars(select(Section).order_by(Section.position)).all()
    minimax = _exercise(database, course, "aima-fig5.2-minimax")
    alphabeta = _exercise(database, course)

    _post(client, f"/teach/exercises/{alphabeta.id}/section", section=str(week1.id))
    _post(client, f"/teach/exercises/{minimax.id}/section", section=str(week1.id))
    _post(client, f"/teach/exercises/{minimax.id}/move", direction="up")
    _post(client, f"/teach/sections/{week2.id}/move", direction="up")
    page = _post(client, f"/teach/sections/{week1.id}/rename", title="Week one")

    # Week 2 first, then Week one holding minimax above alpha-beta.
    headings = re.findall(r'<section class="course-group" id="([^"]+)"', page)
    assert headings[:2] == [f"section-{week2.id}", f"section-{week1.id}"]
    week_one = page[page.index(f'id="section-{week1.id}"') :]
    assert week_one.index(f'id="exercise-{minimax.id}"') < week_one.index(
        f'id="exercise-{alphabeta.id}"'
    )
    # Each control has a label of its own (ids are unique on the page).
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    assert f'<label for="exercise-status-{minimax.id}"' in page

    page = _post(client, f"/teach/sections/{week1.id}/delete")
    assert "Deleted the section “Week one”; its 2 exercises are now in no section." in page
    with database.session() as session:
        assert session.get(Exercise, minimax.id).section_id is None  # type: ignore[union-attr]
        actions = session.scalars(select(AuditEvent.action).order_by(AuditEvent.id)).all()
    assert actions == [
        "section.create",
        "section.create",
        "exercise.section",
        "exercise.section",
        "exercise.move",
        "section.move",
        "section.rename",
        "section.delete",
    ]


def test_the_teaching_home_lists_exercises_by_section(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    _post(client, f"/teach/courses/{course.id}/sections", title="Week 1")
    with database.session() as session:
        (week,) = session.scalars(select(Section)).all()
    minimax = _exercise(database, course, "aima-fig5.2-minimax")
    _post(client, f"/teach/exercises/{minimax.id}/section", section=str(week.id))

    page = client.get("/teach/").get_data(as_text=True)

    headings = re.findall(r'<h3 class="section-title">([^<]+)</h3>', page)
    assert headings == ["Week 1", "Not in a section"]
    week_part = page[page.index("Week 1") : page.index("Not in a section")]
    assert re.findall(r'data-slug="([^"]+)"', week_part) == ["aima-fig5.2-minimax"]


def test_status_changes_follow_the_rules_and_say_why_when_refused(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = _exercise(database, course)
    student = make_user(course=course)
    with database.session() as session:
        found = session.get(Exercise, exercise.id)
        assert found is not None
        submit(session, settings, student, found, "a.py", "x = 1\n")

    page = _post(client, f"/teach/exercises/{exercise.id}/status", status="archived")
    assert "is now archived: read-only" in page
    page = _post(client, f"/teach/exercises/{exercise.id}/status", status="draft")
    assert "was not made draft: students made 1 attempt on it" in page
    page = _post(client, f"/teach/exercises/{exercise.id}/delete")
    assert "was not deleted: students made 1 attempt on it" in page
    with database.session() as session:
        found = session.get(Exercise, exercise.id)
        assert found is not None and found.status == ExerciseStatus.ARCHIVED

    untouched = _exercise(database, course, "aima-fig5.2-minimax")
    page = _post(client, f"/teach/exercises/{untouched.id}/delete")
    assert f"Deleted {untouched.title}." in page
    with database.session() as session:
        assert session.get(Exercise, untouched.id) is None


def test_every_change_needs_a_post_with_its_csrf_token_and_a_valid_choice(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = _exercise(database, course)
    urls = [
        f"/teach/courses/{course.id}/sections",
        f"/teach/exercises/{exercise.id}/status",
        f"/teach/exercises/{exercise.id}/section",
        f"/teach/exercises/{exercise.id}/move",
        f"/teach/exercises/{exercise.id}/delete",
    ]
    for url in urls:
        assert client.get(url).status_code == 405, url
        assert client.post(url, data={"title": "x", "direction": "up"}).status_code in (
            302,
            400,
        ), url
    token = csrf_token(client)
    for url, data in [
        (f"/teach/exercises/{exercise.id}/status", {"status": "gone"}),
        (f"/teach/exercises/{exercise.id}/move", {"direction": "sideways"}),
        (f"/teach/exercises/{exercise.id}/section", {"section": "999999"}),
    ]:
        assert client.post(url, data={"csrf_token": token, **data}).status_code == 400, url
    with database.session() as session:
        assert session.scalars(select(Section)).all() == []
        assert session.scalars(select(AuditEvent)).all() == []


def test_another_course_s_instructor_and_students_change_nothing(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER")
        session.add(other)
        session.flush()
        week = Section(course_id=course.id, title="Week 1")
        session.add(week)
        session.flush()
        week_id = week.id
    exercise = _exercise(database, course)
    posts = [
        f"/teach/courses/{course.id}/sections",
        f"/teach/sections/{week_id}/rename",
        f"/teach/sections/{week_id}/move",
        f"/teach/sections/{week_id}/delete",
        f"/teach/exercises/{exercise.id}/status",
        f"/teach/exercises/{exercise.id}/section",
        f"/teach/exercises/{exercise.id}/move",
        f"/teach/exercises/{exercise.id}/delete",
    ]
    login(client, make_user(Role.INSTRUCTOR, other))
    token = csrf_token(client)
    assert client.get(f"/teach/courses/{course.id}/exercises").status_code == 404
    for url in posts:
        response = client.post(url, data={"csrf_token": token, "title": "x", "status": "hidden"})
        assert response.status_code == 404, url
    login(client, make_user(Role.STUDENT, course))
    assert client.get(f"/teach/courses/{course.id}/exercises").status_code == 403
    for url in posts:
        assert client.post(url, data={"csrf_token": csrf_token(client)}).status_code == 403
    with database.session() as session:
        assert session.scalars(select(AuditEvent)).all() == []
