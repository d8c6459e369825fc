"""The regrade pages through the real app: starting a preview, its progress (JSON for the
page's script), the summary, confirming and cancelling by POST with a CSRF token, for the
course's instructors only; and what students read once a regrade is confirmed. Runs are
graded in this process by the eager queue."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import (
    Course,
    Exercise,
    GradingRun,
    Notice,
    Regrade,
    RegradeState,
    Role,
    RunState,
    Submission,
    User,
)
from grader.services import authoring, lifecycle, regrades
from grader.services.exercise_store import load_version
from grader.services.submissions import submit
from tests.grader.conftest import SentAfterCommit, UserFactory, csrf_token, login
from tests.grader.instructor.helpers import FIGURE, LIBRARY

SLUG = "aima-fig5.2-alphabeta"
RESCORED = "scoring:\n  value: 60\n  decision: 20\n  nodes: 20\n"
"""A version of Figure 5.2 that weighs the root value more and the nodes less."""


def _exercise(session: object, course: Course) -> Exercise:
    from sqlalchemy.orm import Session

    assert isinstance(session, Session)
    return session.scalars(
        select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
    ).one()


def _attempt(database: Database, settings: Settings, course: Course, user: User) -> int:
    """An attempt of ``user``'s, left queued (these tests fill in its run)."""
    with database.session() as session:
        submission = submit(session, settings, user, _exercise(session, course), "a.py", "x=1\n")
        run = submission.runs[0]
        run.state, run.verdict, run.score, run.max_score = RunState.GRADED, "failed", 40.0, 100.0
        return submission.id


def _preview(database: Database, course: Course, teacher: User) -> int:
    """A regrade started but not sent (its runs stay queued)."""
    with database.session() as session:
        return regrades.start(session, SentAfterCommit(), teacher, _exercise(session, course)).id


def _grade_preview(database: Database, regrade_id: int, score: float) -> None:
    with database.session() as session:
        for run in session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id)):
            run.state, run.verdict, run.score, run.max_score = "graded", "failed", score, 100.0


def test_the_page_shows_progress_from_json_then_the_summary(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(course=course, name="Ada Student")
    _attempt(database, settings, course, student)
    regrade_id = _preview(database, course, teacher)
    login(client, teacher)

    progress = client.get(f"/teach/regrades/{regrade_id}/progress")
    assert progress.get_json() == {
        "state": "previewing",
        "total": 1,
        "graded": 0,
        "errors": 0,
        "done": False,
    }
    assert progress.headers["Cache-Control"] == "no-store"
    page = client.get(f"/teach/regrades/{regrade_id}").get_data(as_text=True)
    assert re.search(r'<span class="graded">0</span> of\s+<span class="total">1</span>', page)
    assert f'data-progress-url="/teach/regrades/{regrade_id}/progress"' in page
    assert '<script src="/static/regrade.js" defer></script>' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script (CSP)
    assert "Confirm" not in page

    _grade_preview(database, regrade_id, 70.0)

    assert client.get(f"/teach/regrades/{regrade_id}/progress").get_json()["done"] is True
    page = html.unescape(client.get(f"/teach/regrades/{regrade_id}").get_data(as_text=True))
    assert 'Grades that would go up: <strong class="up">1</strong>' in page
    assert re.search(
        r'<tr class="up">\s*<td>Ada Student.*?<td class="before">40\.0</td>\s*'
        r'<td class="after">70\.0 / 100</td>',
        page,
        re.S,
    )
    assert f'action="/teach/regrades/{regrade_id}/confirm"' in page


def test_confirm_and_cancel_need_a_post_with_its_csrf_token(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    _attempt(database, settings, course, make_user(course=course))
    regrade_id = _preview(database, course, teacher)
    _grade_preview(database, regrade_id, 70.0)
    login(client, teacher)

    for action in ("confirm", "cancel"):
        url = f"/teach/regrades/{regrade_id}/{action}"
        assert client.get(url).status_code == 405
        assert client.post(url).status_code == 400
    assert client.post(
        f"/teach/exercises/{_exercise_id(database, course)}/regrade"
    ).status_code == (400)
    with database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None and regrade.state in regrades.OPEN

    response = client.post(
        f"/teach/regrades/{regrade_id}/cancel", data={"csrf_token": csrf_token(client)}
    )
    assert response.status_code == 302
    with database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None and regrade.state == RegradeState.CANCELLED
        assert (
            session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id)).all()
            == []
        )


def _exercise_id(database: Database, course: Course) -> int:
    with database.session() as session:
        return _exercise(session, course).id


def test_a_second_regrade_leads_to_the_open_one(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    _attempt(database, settings, course, make_user(course=course))
    regrade_id = _preview(database, course, teacher)
    login(client, teacher)

    response = client.post(
        f"/teach/exercises/{_exercise_id(database, course)}/regrade",
        data={"csrf_token": csrf_token(client)},
        follow_redirects=True,
    )

    page = html.unescape(response.get_data(as_text=True))
    assert "No regrade was started: a regrade of this exercise is open already" in page
    assert response.request.path == f"/teach/regrades/{regrade_id}"
    class_results = client.get(f"/teach/exercises/{_exercise_id(database, course)}/class-results")
    assert f'href="/teach/regrades/{regrade_id}"' in class_results.get_data(as_text=True)


def test_only_the_course_s_instructors_reach_a_regrade(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(course=course)
    _attempt(database, settings, course, student)
    regrade_id = _preview(database, course, teacher)
    _grade_preview(database, regrade_id, 70.0)
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER")
        session.add(other)
    gets = [f"/teach/regrades/{regrade_id}", f"/teach/regrades/{regrade_id}/progress"]
    posts = [
        f"/teach/regrades/{regrade_id}/confirm",
        f"/teach/regrades/{regrade_id}/cancel",
        f"/teach/exercises/{_exercise_id(database, course)}/regrade",
    ]

    login(client, make_user(Role.INSTRUCTOR, other))
    token = csrf_token(client)
    for url in gets:
        assert client.get(url).status_code == 404, url
    for url in posts:
        assert client.post(url, data={"csrf_token": token}).status_code == 404, url
    login(client, student)
    token = csrf_token(client)
    for url in gets:
        assert client.get(url).status_code == 403, url
    for url in posts:
        assert client.post(url, data={"csrf_token": token}).status_code == 403, url
    with database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None and regrade.state in regrades.OPEN


def test_a_confirmed_regrade_of_a_changed_version_tells_the_student_their_new_grade(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(course=course, name="Ada Student")
    login(client, student)
    exercise_id = _exercise_id(database, course)
    response = client.post(
        f"/exercises/{exercise_id}/submissions",
        data={
            "csrf_token": csrf_token(client),
            "pasted": (LIBRARY / "wrong_no_pruning.py").read_text(),
        },
    )
    assert response.status_code == 302
    with database.session() as session:
        (submission,) = session.scalars(select(Submission)).all()
        old = submission.latest_run
        assert old is not None and old.state == RunState.GRADED and old.score is not None
        old_score, submission_id = old.score, submission.id
        # A new version: the same trees, scored with other weights.
        exercise = _exercise(session, course)
        files = {path.name: path.read_text() for path in FIGURE.iterdir() if path.is_file()}
        files["exercise.yaml"] += RESCORED
        uploaded = authoring.upload(session, session.get(Course, course.id), SLUG, files, teacher)  # type: ignore[arg-type]
        assert not isinstance(uploaded, list), uploaded
        model = load_version(settings, exercise.slug, uploaded.version)
        lifecycle.publish_version(session, teacher, exercise, uploaded.version, model.title)

    login(client, teacher)
    token = csrf_token(client)
    page = client.post(
        f"/teach/exercises/{exercise_id}/regrade",
        data={"csrf_token": token},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "What confirming would change" in page
    regrade_id = int(re.findall(r"/teach/regrades/(\d+)/confirm", page)[0])
    with database.session() as session:
        (preview,) = session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id))
        assert preview.state == RunState.GRADED and preview.score is not None
        new_score = preview.score
    # Another version draws other hidden trees: the grade changes, one way or the other.
    assert new_score != old_score
    page = html.unescape(
        client.post(
            f"/teach/regrades/{regrade_id}/confirm",
            data={"csrf_token": token},
            follow_redirects=True,
        ).get_data(as_text=True)
    )
    assert "Regrade confirmed: 1 student told of a changed grade" in page

    login(client, student)
    home = client.get("/").get_data(as_text=True)
    assert '<span class="notice-count">1 new notice</span>' in home
    expected = f"after the exercise changed: {old_score:.1f} → {new_score:.1f} (out of 100)."
    exercise_page = html.unescape(client.get(f"/exercises/{exercise_id}").get_data(as_text=True))
    assert expected in exercise_page
    assert '<strong class="new">New:</strong>' in exercise_page
    assert f'href="/submissions/{submission_id}">See the submission</a>' in exercise_page
    submission_page = html.unescape(
        client.get(f"/submissions/{submission_id}").get_data(as_text=True)
    )
    assert expected in submission_page
    assert '<strong class="new">New:</strong>' not in submission_page  # seen already
    assert f"{new_score:g} / 100" in submission_page  # the regrade's run is the latest now
    assert "notice-count" not in client.get("/").get_data(as_text=True)
    with database.session() as session:
        (notice,) = session.scalars(select(Notice)).all()
        assert notice.seen_at is not None and notice.submission_id == submission_id
