"""The instructors' roster pages: a course's students, an exercise's students with their
grades and filters, a student's submission read by its course's instructors, setting and
clearing a grade with a comment (which the student then reads), the audit log, and the
grade book's columns with a late attempt and an override."""

from __future__ import annotations

import csv
import html
import io
import re
from datetime import timedelta

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import (
    AuditEvent,
    Course,
    Exercise,
    ExternalIdentity,
    GradeOverride,
    LatePolicy,
    Notice,
    Role,
    Submission,
    User,
    utcnow,
)
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import UserFactory, csrf_token
from tests.grader.instructor.helpers import LIBRARY, login
from tests.grader.test_overrides import graded_attempt

SLUG = "aima-fig5.2-alphabeta"


def _exercise(session, course: Course) -> Exercise:  # type: ignore[no-untyped-def]
    return session.scalars(
        select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
    ).one()


def _class(
    database: Database, course: Course, make_user: UserFactory
) -> tuple[User, User, User, dict[str, int]]:
    """An instructor, a student with a late passed attempt after a failed one (due two
    days ago, 10 % a day), an idle student; the submissions' ids."""
    teacher = make_user(Role.INSTRUCTOR, course, name="Prof Tree")
    late = make_user(Role.STUDENT, course, name="Late Lovelace")
    idle = make_user(Role.STUDENT, course, name="Idle Ivy")
    with database.session() as session:
        exercise = _exercise(session, course)
        exercise.due_at = utcnow() - timedelta(days=2)
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
        first = graded_attempt(
            session, exercise, late, 6.0, verdict="failed", ago=timedelta(days=3)
        )
        second = graded_attempt(session, exercise, late, 10.0, ago=timedelta(hours=1))
        session.add(ExternalIdentity(source="integration:3", external_id="s-77", user_id=late.id))
        ids = {"exercise": exercise.id, "first": first.id, "second": second.id}
    return teacher, late, idle, ids


def _override(client: FlaskClient, submission_id: int, score: str, comment: str) -> tuple[int, str]:
    response = client.post(
        f"/teach/submissions/{submission_id}/override",
        data={"csrf_token": csrf_token(client), "score": score, "comment": comment},
    )
    return response.status_code, html.unescape(response.get_data(as_text=True))


def test_the_roster_lists_the_students_with_their_lms_identity_and_activity(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher, late, idle, _ = _class(database, course, make_user)
    login(client, teacher)

    home = client.get("/teach/").get_data(as_text=True)
    page = html.unescape(client.get(f"/teach/courses/{course.id}/roster").get_data(as_text=True))

    assert f'href="/teach/courses/{course.id}/roster"' in home
    row = re.search(rf'<tr data-student="{late.id}">.*?</tr>', page, re.S)
    assert row is not None
    assert "Late Lovelace" in row.group(0) and late.email in row.group(0)
    assert "integration:3: s-77" in row.group(0)
    assert re.search(r"<time datetime=\"[^\"]+\" data-local>\d{4}-\d\d-\d\d", row.group(0))
    assert re.search(r'class="count">1 of \d+</td>', row.group(0))
    idle_row = re.search(rf'<tr data-student="{idle.id}">.*?</tr>', page, re.S)
    assert idle_row is not None and 'class="count">0 of' in idle_row.group(0)
    assert f'<tr data-student="{teacher.id}">' not in page
    assert f'href="/teach/courses/{course.id}/audit"' in page


def test_an_exercises_students_show_their_grades_and_filter(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher, late, idle, ids = _class(database, course, make_user)
    login(client, teacher)
    url = f"/teach/exercises/{ids['exercise']}/students"

    page = client.get(url).get_data(as_text=True)

    row = re.search(rf'<tr data-student="{late.id}".*?</tr>', page, re.S)
    assert row is not None
    assert '<td class="best">8 / 10</td>' in row.group(0)  # 10 less 2 days at 10 %
    assert "late 2 d, &minus;20" in row.group(0)
    assert '<td class="count">2</td>' in row.group(0)
    assert f'href="/teach/submissions/{ids["second"]}"' in row.group(0)

    def listed(show: str) -> set[int]:
        shown = client.get(f"{url}?show={show}").get_data(as_text=True)
        return {int(n) for n in re.findall(r'<tr data-student="(\d+)"', shown)}

    assert listed("late") == {late.id}
    assert listed("not-submitted") == {idle.id}
    assert listed("failed") == set()  # the latest attempt passed with 10 / 10
    assert listed("all") == {late.id, idle.id}
    assert listed("nonsense") == {late.id, idle.id}
    by_grade = client.get(f"{url}?sort=grade").get_data(as_text=True)
    assert by_grade.index(f'data-student="{late.id}"') < by_grade.index(f'data-student="{idle.id}"')


def test_an_instructor_reads_a_graded_submission_with_its_code_and_every_attempt(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    from grader.services.queue import Queue
    from grader.services.submissions import submit

    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(Role.STUDENT, course, name="Grace Graded")
    with database.session() as session:
        exercise = _exercise(session, course)
        source = (LIBRARY / "wrong_no_pruning.py").read_text()
        first = submit(session, settings, student, exercise, "mine.py", source)
        check = submit(session, settings, student, exercise, "d.py", source, kind="check")
        run_ids = [first.runs[0].id, check.runs[0].id]
        first_id, check_id = first.id, check.id
    assert Queue(settings, database).send(GRADE_TASK, run_ids) == 2
    login(client, teacher)

    response = client.get(f"/teach/submissions/{first_id}")

    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "Grace Graded" in page and student.email in page
    assert "Grace Graded's code" in page and "mine.py" in page
    assert 'class="code-panel"' in page and "never prunes" in page
    assert '<section id="feedback" class="feedback">' in page
    assert 'data-case="fig5.2"' in page
    assert "Hidden trees" in page
    assert "Submit again" not in page and "Submit this code for grading" not in page
    assert 'name="score"' in page and 'name="comment"' in page
    attempts = page[page.index('<section class="attempts">') :]
    assert f'href="/teach/submissions/{first_id}"' in attempts
    assert f"/teach/submissions/{check_id}" not in attempts  # a check is not an attempt
    assert "Checks on the public trees are not attempts" in attempts
    # The check itself opens, said to be one.
    check_page = client.get(f"/teach/submissions/{check_id}").get_data(as_text=True)
    assert "a check on the public trees: not an attempt" in check_page


def test_only_the_courses_instructors_open_these_pages(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    _teacher, late, _idle, ids = _class(database, course, make_user)
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER1")
        session.add(other)
    stranger = make_user(Role.INSTRUCTOR, other)
    urls = [
        f"/teach/courses/{course.id}/roster",
        f"/teach/courses/{course.id}/audit",
        f"/teach/exercises/{ids['exercise']}/students",
        f"/teach/submissions/{ids['second']}",
    ]
    for user in (stranger, late):
        login(client, user)
        for url in urls:
            assert client.get(url).status_code == 404, (user.name, url)
        status, _ = _override(client, ids["second"], "3", "sneaky")
        assert status == 404, user.name
        response = client.post(
            f"/teach/submissions/{ids['second']}/override/clear",
            data={"csrf_token": csrf_token(client), "comment": "x"},
        )
        assert response.status_code == 404
    with database.session() as session:
        assert session.scalar(select(GradeOverride)) is None


def test_setting_a_grade_needs_a_comment_and_a_score_in_range(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher, _late, _idle, ids = _class(database, course, make_user)
    login(client, teacher)

    for score, comment, said in [
        ("7", "", "Not changed: write a comment"),
        ("11", "too much", "Not changed: the score must be a number from 0 to 10"),
        ("-1", "too little", "Not changed: the score must be a number from 0 to 10"),
        ("", "no score", "Not changed: the score must be a number from 0 to 10"),
        ("seven", "a word", "Not changed: the grade must be a number"),
    ]:
        status, page = _override(client, ids["second"], score, comment)
        assert status == 422, score
        assert said in page, score
    response = client.post(
        f"/teach/submissions/{ids['second']}/override", data={"score": "7", "comment": "c"}
    )
    assert response.status_code == 400  # no CSRF token
    with database.session() as session:
        assert session.scalar(select(GradeOverride)) is None
        assert session.scalar(select(AuditEvent)) is None


def test_a_set_grade_is_audited_and_the_student_reads_it_until_it_is_cleared(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher, late, _idle, ids = _class(database, course, make_user)
    login(client, teacher)

    status, _ = _override(client, ids["first"], "7", "Your B was right <b>after all</b>")
    page = html.unescape(client.get(f"/teach/submissions/{ids['first']}").get_data(as_text=True))

    assert status == 302
    assert "Grade set: Late Lovelace is told" in page
    assert "Set to 7 / 10" in page and "overridden" in page
    with database.session() as session:
        (event,) = session.scalars(select(AuditEvent)).all()
        assert (event.action, event.actor_id, event.subject_id) == (
            "grade.override",
            teacher.id,
            late.id,
        )
        assert event.details["comment"] == "Your B was right <b>after all</b>"
        assert session.scalar(select(Notice.kind).where(Notice.user_id == late.id)) == "override"
    audit_page = client.get(f"/teach/courses/{course.id}/audit").get_data(as_text=True)
    assert 'data-action="grade.override"' in audit_page
    assert "Your B was right &lt;b&gt;after all&lt;/b&gt;" in audit_page
    filtered = client.get(f"/teach/courses/{course.id}/audit?student={teacher.id}")
    assert 'data-action="grade.override"' not in filtered.get_data(as_text=True)

    login(client, late)
    said = "Your instructor set your grade to 7 / 10</strong>: Your B was right &lt;b&gt;after all"
    exercise_page = client.get(f"/exercises/{ids['exercise']}").get_data(as_text=True)
    submission_page = client.get(f"/submissions/{ids['second']}").get_data(as_text=True)
    assert said in exercise_page
    assert said in submission_page
    home = client.get("/").get_data(as_text=True)
    assert '7 / 10 <span class="muted">(set by your instructor)</span>' in home

    login(client, teacher)
    response = client.post(
        f"/teach/submissions/{ids['first']}/override/clear",
        data={"csrf_token": csrf_token(client), "comment": "Back to your attempts"},
    )
    assert response.status_code == 302
    login(client, late)
    # The standing grade is gone; the notices keep what the student was told, as history.
    cleared = client.get(f"/exercises/{ids['exercise']}").get_data(as_text=True)
    assert 'id="override"' not in cleared
    assert "Your instructor set your grade to 7 / 10</strong>" not in cleared
    with database.session() as session:
        actions = session.scalars(select(AuditEvent.action).order_by(AuditEvent.id)).all()
        assert actions == ["grade.override", "grade.override_cleared"]


def test_the_grade_book_has_the_late_attempt_and_the_override(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher, late, _idle, ids = _class(database, course, make_user)
    login(client, teacher)
    _override(client, ids["second"], "8.5", "=SUM(A1)")

    response = client.get(f"/teach/exercises/{ids['exercise']}/grades.csv")

    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    (row,) = [row for row in rows if row[0] == "Late Lovelace"]
    record = dict(zip(rows[0], row, strict=True))
    assert record["email"] == late.email
    assert record["LMS identity"] == "integration:3: s-77"
    assert record["attempts"] == "2"
    assert record["latest verdict"] == "passed"
    assert (record["latest score"], record["best score"]) == ("8", "8")  # 10 less 20 %
    assert (record["grade"], record["max score"]) == ("8.5", "10")
    assert (record["late"], record["days late"], record["penalty %"]) == ("yes", "2", "20")
    assert (record["override"], record["override comment"]) == ("yes", "'=SUM(A1)")
    assert record["extension due (UTC)"] == ""
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", record["latest submission (UTC)"])
    with database.session() as session:
        assert session.get(Submission, ids["first"]) is not None
