"""Checking a draft on the public trees: graded through the same queue and worker, shown with
the same feedback, and not an attempt (no attempt number, no effect on standings, the grade
book, class results, regrades or deliveries), under a rate limit of its own."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text

from grader.config import Settings
from grader.db import Database
from grader.models import (
    Course,
    Delivery,
    Exercise,
    GradingRun,
    LtiLaunch,
    LtiPlatform,
    Submission,
    User,
)
from grader.models.submissions import SubmissionKind
from grader.services import authoring, class_results, gradebook, regrades
from grader.services.submissions import SubmissionRefused, standing, submit
from tests.grader.conftest import (
    Backend,
    SentAfterCommit,
    UserFactory,
    configured,
    csrf_token,
    login,
    stored_report,
)

LIBRARY = Path(__file__).resolve().parents[3] / "exercises" / "implementations"
CORRECT = (LIBRARY / "alphabeta" / "correct_fail_hard.py").read_text()
NO_PRUNING = (LIBRARY / "alphabeta" / "wrong_no_pruning.py").read_text()
SLUG = "aima-fig5.2-alphabeta"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


def _exercise(database: Database, course: Course) -> int:
    with database.session() as session:
        found = session.scalar(
            select(Exercise.id).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        )
    assert found is not None
    return found


def _launched_from_an_lms(database: Database, student: User, exercise: int) -> None:
    """``student`` launched ``exercise`` from an LTI platform that takes scores: each of
    their graded attempts calls for a score delivery."""
    with database.session() as session:
        platform = LtiPlatform(
            name="LMS",
            issuer="https://lms.example.edu",
            client_id="grader",
            deployment_ids=["1"],
            auth_login_url="https://lms.example.edu/auth",
            auth_token_url="https://lms.example.edu/token",
            key_set_url="https://lms.example.edu/keys",
            tool_private_key="unused",
            tool_key_id="k1",
        )
        session.add(platform)
        session.flush()
        session.add(
            LtiLaunch(
                platform_id=platform.id,
                user_id=student.id,
                exercise_id=exercise,
                subject="learner-1",
                lineitem_url="https://lms.example.edu/lineitems/1",
                ags_scopes=[SCORE_SCOPE],
            )
        )


def _post(client: FlaskClient, url: str, **data: Any) -> Any:
    return client.post(url, data={"csrf_token": csrf_token(client), **data})


def _submission_id(response: Any) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    match = re.search(r"/submissions/(\d+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def _row_of(page: str, exercise_id: int) -> str:
    """The home page's row of the exercise (attempts, best score, latest verdict)."""
    match = re.search(rf'<tr>\s*<td><a href="/exercises/{exercise_id}">.*?</tr>', page, re.S)
    assert match, "no row of the exercise on the home page"
    return match.group(0)


def _attempts_list(page: str) -> str:
    return page[page.index('<section class="attempts">') :]


def _course_of(session: Any, exercise: Exercise) -> Course:
    course = session.get(Course, exercise.course_id)
    assert course is not None
    return course


def _what_counts(
    client: FlaskClient, database: Database, student: User, exercise_id: int
) -> dict[str, Any]:
    """Everything an attempt changes and a check must not: the student's standing, home
    page and list of attempts, the grade book, the class results, the deliveries, a regrade."""
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        settings = Settings()
        figures = {
            "attempts": standing(session, settings, student.id, exercise_id).attempts,
            "home": _row_of(client.get("/").get_data(as_text=True), exercise_id),
            "attempts list": _attempts_list(
                client.get(f"/exercises/{exercise_id}").get_data(as_text=True)
            ),
            "grade book": gradebook.grade_book(session, exercise),
            "latest runs": session.scalars(class_results.latest_run_ids(exercise)).all(),
            "graded": class_results.students_graded(session, exercise),
            "verdicts": class_results.verdict_distribution(session, exercise),
            "histogram": class_results.score_histogram(session, exercise),
            "divergences": class_results.common_divergences(session, exercise),
            "heat": class_results.heat_maps(session, exercise),
            "deliveries": session.scalar(select(func.count()).select_from(Delivery)),
            "instructor's list": [
                row.submissions
                for row in authoring.course_exercises(session, _course_of(session, exercise))
            ],
        }
        # A regrade's preview, rolled back: which submissions it would grade again.
        try:
            regrade = regrades.start(session, SentAfterCommit(), student, exercise)
        except regrades.RegradeRefused:
            figures["regraded"] = []
        else:
            figures["regraded"] = sorted(
                session.scalars(
                    select(GradingRun.submission_id).where(GradingRun.regrade_id == regrade.id)
                )
            )
        session.rollback()
    return figures


def test_a_check_grades_the_public_trees_only_and_counts_towards_nothing(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    exercise = _exercise(database, course)
    _launched_from_an_lms(database, student, exercise)
    login(client, student)
    attempt = _submission_id(_post(client, f"/exercises/{exercise}/submissions", pasted=NO_PRUNING))
    before = _what_counts(client, database, student, exercise)
    assert before["attempts"] == 1 and before["deliveries"] == 1  # the LMS hears of attempts
    assert before["regraded"] == [attempt]

    check = _submission_id(_post(client, f"/exercises/{exercise}/checks", pasted=CORRECT))

    after = _what_counts(client, database, student, exercise)
    assert after == before
    with database.session() as session:
        found = session.get(Submission, check)
        assert found is not None
        assert (found.kind, found.attempt) == (SubmissionKind.CHECK, 0)
        run_id = found.runs[0].id
    report = stored_report(database, run_id)
    assert report is not None and report["verdict"] == "passed"
    names = [case["name"] for case in report["cases"]]
    assert names and not any(case["hidden"] for case in report["cases"])
    assert report["score"] == report["max_score"] > 0
    page = client.get(f"/submissions/{check}").get_data(as_text=True)
    assert "This is a check on the public trees, not an attempt." in page
    assert "the hidden trees were not run" in page
    assert 'class="hidden-trees"' not in page
    assert 'id="feedback"' in page and f'data-case="{names[0]}"' in page
    assert "<h1>Attempt" not in page

    # The next attempt is number 2: the check took no number.
    again = _submission_id(_post(client, f"/submissions/{check}/attempt"))
    with database.session() as session:
        resubmitted = session.get(Submission, again)
        assert resubmitted is not None
        assert (resubmitted.kind, resubmitted.attempt) == (SubmissionKind.ATTEMPT, 2)
        assert resubmitted.source == CORRECT.replace("\r\n", "\n")
        assert any(case.hidden for case in resubmitted.runs[0].trees)
    assert _what_counts(client, database, student, exercise)["deliveries"] == 2


def test_checks_have_a_rate_limit_of_their_own(backend: Backend) -> None:
    settings = replace(
        backend.settings,
        submissions_per_hour=1,
        submission_min_gap_seconds=0,
        checks_per_hour=2,
        check_min_gap_seconds=0,
    )
    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
        ).one()
        user = session.get(User, student.id)
        assert user is not None

        def make(kind: SubmissionKind) -> Submission | SubmissionRefused:
            try:
                return submit(session, settings, user, exercise, "a.py", CORRECT, kind=kind)
            except SubmissionRefused as refused:
                return refused

        checks = [make(SubmissionKind.CHECK), make(SubmissionKind.CHECK)]
        assert all(isinstance(made, Submission) for made in checks)
        # Two checks used no attempt: the one attempt an hour is still there.
        first = make(SubmissionKind.ATTEMPT)
        assert isinstance(first, Submission) and first.attempt == 1
        refused_attempt = make(SubmissionKind.ATTEMPT)
        assert isinstance(refused_attempt, SubmissionRefused)
        assert refused_attempt.status == 429 and "submit again" in refused_attempt.message
        refused_check = make(SubmissionKind.CHECK)
        assert isinstance(refused_check, SubmissionRefused)
        assert refused_check.status == 429 and "check again" in refused_check.message
        assert standing(session, settings, user.id, exercise.id).attempts == 1
        checked = standing(session, settings, user.id, exercise.id, kind=SubmissionKind.CHECK)
        assert checked.attempts == 2 and checked.next_allowed is not None
        session.rollback()


def test_a_refused_check_says_so_and_keeps_the_draft(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    student = make_user(course=course)
    exercise = _exercise(database, course)
    with database.session() as session:
        found, user = session.get(Exercise, exercise), session.get(User, student.id)
        assert found is not None and user is not None
        submit(session, settings, user, found, "a.py", CORRECT, kind=SubmissionKind.CHECK)
    configured(app, check_min_gap_seconds=3600)
    login(client, student)

    response = _post(client, f"/exercises/{exercise}/checks", pasted="def max_value(): pass\n")

    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 3500
    page = response.get_data(as_text=True)
    assert "Your check was not run: you can check again at" in page
    assert "def max_value(): pass" in page
    assert "You can check again at" in page and "You can submit again" not in page


def test_the_editor_form_works_without_javascript(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    student, other = make_user(course=course), make_user(course=course)
    exercise = _exercise(database, course)
    login(client, student)
    page = client.get(f"/exercises/{exercise}").get_data(as_text=True)
    # A plain form: the textarea, the upload, one button per action, each posting itself.
    assert re.search(r'<textarea[^>]*name="pasted"', page)
    assert 'type="file"' in page
    assert f'formaction="/exercises/{exercise}/checks"' in page
    assert f'action="/exercises/{exercise}/submissions"' in page
    assert "vendor/codemirror/editor.bundle.js" in page and "<script>" not in page
    assert f'data-starter-url="/exercises/{exercise}/starter.py"' in page

    check = _submission_id(_post(client, f"/exercises/{exercise}/checks", pasted=CORRECT))
    # Back to the editor with the check's code, the student's own only.
    draft = client.get(f"/exercises/{exercise}?draft={check}").get_data(as_text=True)
    assert "def max_value" in draft and "def max_value" not in page
    login(client, other)
    assert "def max_value" not in client.get(f"/exercises/{exercise}?draft={check}").get_data(
        as_text=True
    )
    # Nobody else submits it as an attempt, nor is an attempt submitted again this way.
    assert _post(client, f"/submissions/{check}/attempt").status_code == 404
    attempt = _submission_id(_post(client, f"/exercises/{exercise}/submissions", pasted=CORRECT))
    assert _post(client, f"/submissions/{attempt}/attempt").status_code == 404


def test_going_back_before_migration_0007_drops_the_checks_and_their_runs(
    backend: Backend,
) -> None:
    from alembic import command

    from grader.migrate import alembic_config

    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
        ).one()
        user = session.get(User, student.id)
        assert user is not None
        kept = submit(session, backend.settings, user, exercise, "a.py", CORRECT).id
        dropped = submit(
            session, backend.settings, user, exercise, "b.py", CORRECT, kind=SubmissionKind.CHECK
        ).id
    url = backend.database.engine.url.render_as_string(hide_password=False)
    backend.database.engine.dispose()
    command.downgrade(alembic_config(url), "0006")
    try:
        with backend.database.engine.connect() as connection:
            ids = connection.execute(text("SELECT id FROM submissions")).scalars().all()
            runs = connection.execute(text("SELECT submission_id FROM grading_runs")).scalars()
            assert kept in ids and dropped not in ids
            assert dropped not in runs.all()
    finally:
        command.upgrade(alembic_config(url), "head")
    with backend.database.session() as session:
        found = session.get(Submission, kept)
        assert found is not None and found.kind == SubmissionKind.ATTEMPT
