"""Deadlines through the pages: the instructor's form (local time in, UTC stored, clear
errors), extensions granted and removed (audited, told to the student), and what the
student's pages say and refuse."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.models import (
    AuditEvent,
    Course,
    Exercise,
    Extension,
    GradingRun,
    LatePolicy,
    Notice,
    Role,
    RunState,
    utcnow,
)
from grader.models.base import aware
from grader.services.grades import AttemptScore, Lateness
from grader.services.submissions import submit
from grader.web.deadlines import from_now, to_utc
from grader.web.template_filters import late_score
from tests.grader.conftest import UserFactory, csrf_token
from tests.grader.instructor.helpers import login

SLUG = "aima-fig5.2-alphabeta"
SOURCE = "def max_value(game, state, alpha, beta):\n    return 3\n"


def _exercise(database: Database, course: Course) -> Exercise:
    with database.session() as session:
        found = session.scalar(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        )
        assert found is not None
        session.expunge(found)
        return found


def _dates(client: FlaskClient, exercise_id: int, **fields: str) -> tuple[int, str]:
    data = {
        "csrf_token": csrf_token(client),
        "time_zone": "Europe/Paris",
        "late_policy": "penalty",
        "penalty_per_day": "10",
        "penalty_cap": "50",
        **fields,
    }
    response = client.post(f"/teach/exercises/{exercise_id}/deadline", data=data)
    return response.status_code, response.get_data(as_text=True)


def test_local_times_are_stored_in_utc() -> None:
    entered = datetime(2026, 12, 5, 23, 59)
    assert to_utc(entered, "Europe/Paris") == datetime(2026, 12, 5, 22, 59, tzinfo=UTC)
    assert to_utc(entered, "America/New_York") == datetime(2026, 12, 6, 4, 59, tzinfo=UTC)
    assert to_utc(entered, "Not/AZone") == entered.replace(tzinfo=UTC)
    assert to_utc(entered, "") == entered.replace(tzinfo=UTC)
    assert to_utc(None, "UTC") is None


def test_from_now_in_words() -> None:
    now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    assert from_now(now + timedelta(days=2, hours=3), now) == "in 2 days"
    assert from_now(now - timedelta(hours=1), now) == "1 hour ago"
    assert from_now(now + timedelta(seconds=20), now) == "now"


def test_the_instructor_sets_dates_in_their_time_zone(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(course=course)
    exercise = _exercise(database, course)
    login(client, teacher)
    page = client.get(f"/teach/exercises/{exercise.id}/").get_data(as_text=True)
    assert 'type="datetime-local"' in page and "data-timezone" in page

    status, _ = _dates(client, exercise.id, opens_at="2026-11-01T08:00", due_at="2026-12-05T23:59")
    assert status == 302
    with database.session() as session:
        stored = session.get(Exercise, exercise.id)
        assert stored is not None and stored.due_at is not None and stored.opens_at is not None
        assert aware(stored.due_at) == datetime(2026, 12, 5, 22, 59, tzinfo=UTC)
        assert aware(stored.opens_at) == datetime(2026, 11, 1, 7, 0, tzinfo=UTC)
        assert (stored.late_policy, stored.late_penalty_per_day, stored.late_penalty_cap) == (
            LatePolicy.PENALTY,
            10.0,
            50.0,
        )
        assert stored.due_origin == "instructor"
        (event,) = session.scalars(select(AuditEvent)).all()
        assert event.action == "exercise.deadline" and event.actor_id == teacher.id
        assert event.details["after"]["due_at"] == "2026-12-05T22:59:00+00:00"
        assert event.details["before"]["due_at"] is None
        (notice,) = session.scalars(select(Notice).where(Notice.user_id == student.id)).all()
        assert notice.kind == "deadline" and "Sat 05 Dec 2026, 22:59 UTC" in notice.message
    page = client.get(f"/teach/exercises/{exercise.id}/").get_data(as_text=True)
    assert 'data-utc="2026-12-05T22:59"' in page
    assert '<time datetime="2026-12-05T22:59:00Z" data-local>' in page


def test_wrong_dates_and_penalties_are_refused_with_clear_errors(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = _exercise(database, course)
    cases = [
        ({"opens_at": "2026-12-06T08:00", "due_at": "2026-12-05T23:59"}, "after the opening"),
        ({"due_at": "2026-12-05T23:59", "penalty_per_day": "150"}, "between 0 and 100"),
        ({"due_at": "2026-12-05T23:59", "penalty_cap": "-1"}, "between 0 and 100"),
        ({"due_at": "not a date"}, "Not a valid datetime value"),
        ({"late_policy": "refuse"}, "needs a due date"),
        ({"late_policy": "whenever"}, "Not a valid choice"),
    ]
    for fields, words in cases:
        status, page = _dates(client, exercise.id, **fields)
        assert status == 422, fields
        assert words in page, (fields, page[page.find("field-error") - 200 :][:600])
    with database.session() as session:
        stored = session.get(Exercise, exercise.id)
        assert stored is not None and stored.due_at is None
        assert session.scalars(select(AuditEvent)).all() == []


def test_an_extension_is_granted_audited_told_and_removed(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(course=course, name="Grace Hopper")
    outsider = make_user()
    exercise = _exercise(database, course)
    login(client, teacher)
    url = f"/teach/exercises/{exercise.id}/extensions"
    data = {
        "csrf_token": csrf_token(client),
        "extension-time_zone": "UTC",
        "extension-reason": "ill",
    }

    no_due = client.post(
        url, data={**data, "extension-student": student.id, "extension-due_at": "2026-12-08T12:00"}
    )
    assert no_due.status_code == 422 and "no due date to extend" in no_due.get_data(as_text=True)
    _dates(client, exercise.id, due_at="2026-12-05T23:59", time_zone="UTC")
    page = client.get(f"/teach/exercises/{exercise.id}/").get_data(as_text=True)
    assert "Grace Hopper" in page and outsider.name not in page

    stranger = client.post(
        url, data={**data, "extension-student": outsider.id, "extension-due_at": "2026-12-08T12:00"}
    )
    assert stranger.status_code == 422
    assert "one of the course" in stranger.get_data(as_text=True)
    earlier = client.post(
        url, data={**data, "extension-student": student.id, "extension-due_at": "2026-12-04T12:00"}
    )
    assert earlier.status_code == 422
    assert "later than the exercise" in earlier.get_data(as_text=True)

    granted = client.post(
        url, data={**data, "extension-student": student.id, "extension-due_at": "2026-12-08T12:00"}
    )
    assert granted.status_code == 302
    with database.session() as session:
        (extension,) = session.scalars(select(Extension)).all()
        assert aware(extension.due_at) == datetime(2026, 12, 8, 12, 0, tzinfo=UTC)
        assert (extension.reason, extension.granted_by_id) == ("ill", teacher.id)
        extension_id = extension.id
        actions = [event.action for event in session.scalars(select(AuditEvent))]
        assert actions == ["exercise.deadline", "extension.grant"]
        kinds = [
            notice.kind
            for notice in session.scalars(
                select(Notice).where(Notice.user_id == student.id).order_by(Notice.id)
            )
        ]
        assert kinds == ["deadline", "extension"]
    page = client.get(f"/teach/exercises/{exercise.id}/").get_data(as_text=True)
    assert "Grace Hopper" in page and "ill" in page

    removed = client.post(f"{url}/{extension_id}/delete", data={"csrf_token": csrf_token(client)})
    assert removed.status_code == 302
    with database.session() as session:
        assert session.scalars(select(Extension)).all() == []
        last = session.scalars(select(AuditEvent).order_by(AuditEvent.id.desc())).first()
        assert last is not None and last.action == "extension.remove"
        assert last.subject_id == student.id


def test_another_course_s_instructor_cannot_change_the_dates(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR))
    exercise = _exercise(database, course)
    status, _ = _dates(client, exercise.id, due_at="2026-12-05T23:59")
    assert status == 404


def _set(database: Database, exercise_id: int, **values: object) -> None:
    with database.session() as session:
        stored = session.get(Exercise, exercise_id)
        assert stored is not None
        for name, value in values.items():
            setattr(stored, name, value)


def test_the_student_sees_the_due_date_and_a_late_attempt_s_penalty(
    client: FlaskClient,
    database: Database,
    settings: object,
    course: Course,
    make_user: UserFactory,
) -> None:
    student = make_user(course=course)
    exercise = _exercise(database, course)
    due = utcnow() - timedelta(hours=25)
    _set(
        database,
        exercise.id,
        due_at=due,
        late_policy=LatePolicy.PENALTY,
        late_penalty_per_day=10.0,
        late_penalty_cap=50.0,
    )
    with database.session() as session:
        stored = session.get(Exercise, exercise.id)
        assert stored is not None
        made = submit(session, settings, student, stored, "a.py", SOURCE)  # type: ignore[arg-type]
        run = session.scalars(select(GradingRun).where(GradingRun.submission_id == made.id)).one()
        run.state, run.verdict, run.score, run.max_score = RunState.GRADED, "passed", 7.0, 10.0
        submission_id = made.id
    login(client, student)
    home = client.get("/").get_data(as_text=True)
    assert "Was due <time" in home and "1 day ago" in home
    assert "5.6 / 10" in home  # the best after the policy
    page = client.get(f"/exercises/{exercise.id}").get_data(as_text=True)
    assert "Was due <time" in page
    assert "Late submissions lose 10 % per day, at most 50 %." in page
    assert "7 → 5.6 after 2 days late, &minus;20 %" in page
    shown = client.get(f"/submissions/{submission_id}").get_data(as_text=True)
    assert "Submitted late" in shown and "7 → 5.6 after 2 days late" in shown
    # The status line gives the score that counts, and the one before the policy.
    graded = re.search(r'<div id="live".*?</div>', shown, re.S)
    assert graded is not None
    assert re.search(
        r'score <span class="score">5\.6 / 10</span> after the late policy\s*\(7 / 10 before\)',
        graded.group(0),
    )

    with database.session() as session:
        session.add(
            Extension(
                exercise_id=exercise.id, user_id=student.id, due_at=utcnow() + timedelta(days=2)
            )
        )
    page = client.get(f"/exercises/{exercise.id}").get_data(as_text=True)
    assert "Your extension: due <time" in page and "in 1 day" in page
    assert "after 2 days late" not in page


def test_a_closed_exercise_disables_submitting_and_refuses_in_words(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    exercise = _exercise(database, course)
    _set(database, exercise.id, due_at=utcnow() - timedelta(hours=1), late_policy=LatePolicy.REFUSE)
    login(client, student)
    page = client.get(f"/exercises/{exercise.id}").get_data(as_text=True)
    assert "You cannot submit for grading: Closed: no late submissions" in page
    assert '<button type="submit" disabled aria-describedby="submit-refused">' in page
    posted = client.post(
        f"/exercises/{exercise.id}/submissions",
        data={"csrf_token": csrf_token(client), "pasted": SOURCE},
    )
    assert posted.status_code == 403
    assert "takes no late submissions" in posted.get_data(as_text=True)

    _set(
        database,
        exercise.id,
        opens_at=utcnow() + timedelta(days=3),
        due_at=utcnow() + timedelta(days=10),
    )
    page = client.get(f"/exercises/{exercise.id}").get_data(as_text=True)
    assert "Not open yet: it opens <time" in page
    assert "in 3 days" in page or "in 2 days" in page


def test_a_late_attempt_s_score_in_words() -> None:
    def attempt(raw: float | None, days: int, penalty: float) -> AttemptScore:
        lateness = Lateness(days > 0, days, penalty)
        return AttemptScore(1, 1, utcnow(), "passed", raw, 10.0, lateness, raw is not None)

    assert late_score(attempt(7.0, 0, 0.0)) == ""
    assert late_score(None) == ""
    assert "7 → 6.3 after 1 day late, &minus;10 %" in late_score(attempt(7.0, 1, 10.0))
    assert "3 days after the due date" in late_score(attempt(7.0, 3, 0.0))
    assert "1 day after the due date" in late_score(attempt(None, 1, 10.0))  # not graded yet
