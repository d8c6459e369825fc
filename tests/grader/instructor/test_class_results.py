"""What instructors learn about their class: the heat map, verdicts, scores, divergences,
the grade book as CSV, and a regrade's preview of every student's latest submission."""

from __future__ import annotations

import csv
import html
import io
import re

from flask.testing import FlaskClient
from sqlalchemy import case, func, select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, GradingRun, Role, RunState, User
from grader.services import class_results
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import UserFactory, analysed, csrf_token
from tests.grader.instructor.helpers import LIBRARY, find_exercise, login

SLUG = "aima-fig5.2-alphabeta"


def _submit(database: Database, settings: Settings, course: Course, user: User, name: str) -> None:
    """``user`` submits the library's ``name`` to Figure 5.2; graded in process."""
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        submission = submit(session, settings, user, exercise, name, (LIBRARY / name).read_text())
        run_ids = [run.id for run in submission.runs]
    assert Queue(settings, database).send(GRADE_TASK, run_ids) == len(run_ids)


def _class_of_two(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> tuple[User, User]:
    right = make_user(Role.STUDENT, course, name="Ada Right")
    wrong = make_user(Role.STUDENT, course, name="=cmd()")
    _submit(database, settings, course, right, "correct_fail_hard.py")
    _submit(database, settings, course, wrong, "wrong_no_pruning.py")
    return right, wrong


def test_the_heat_map_shows_where_half_the_class_searched_too_much(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    _class_of_two(database, settings, course, make_user)
    analysed(database, settings, course, SLUG)
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    response = client.get(f"/teach/exercises/{exercise.id}/class-results")

    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert f"<h1>Class results: {exercise.title}</h1>" in page
    assert '<strong class="students">2</strong>' in page
    for node in ("C2", "C3"):
        row = re.search(
            rf'<tr data-node="{node}"><td>{node}</td><td class="share">(\d+)%</td>', page
        )
        assert row is not None and row.group(1) == "50"
        assert f"{node}: 50% wrong (1 of 2): 1 extra, 1 pruned" in page
        assert re.search(rf'class="node [^"]*\bheat-3\b[^"]*" data-node="{node}"', page)
    assert re.search(r'class="node [^"]*\bheat-0\b[^"]*" data-node="B1"', page)
    assert '<tr data-verdict="passed"><td>passed</td><td class="count">1</td>' in page
    assert '<tr data-verdict="failed"><td>failed</td><td class="count">1</td>' in page
    assert "Most common first divergences" in page
    assert re.search(
        r'<td class="count">1</td><td>fig5.2</td><td>C</td><td>At C \(MIN, alpha = 3\): '
        r"after C1 returned 2, v = 2 <= alpha = 3, so C could return at once",
        page,
    )


def test_the_old_analytics_address_moved_for_good_to_the_class_results(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    moved = client.get(f"/teach/exercises/{exercise.id}/analytics")

    assert moved.status_code == 301
    assert moved.headers["Location"] == f"/teach/exercises/{exercise.id}/class-results"
    assert client.get(moved.headers["Location"]).status_code == 200


def test_class_results_figures_come_from_each_students_latest_graded_run(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    _right, wrong = _class_of_two(database, settings, course, make_user)
    _submit(database, settings, course, wrong, "correct_fail_soft.py")  # fixed it

    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        assert class_results.students_graded(session, exercise) == 2
        heat = class_results.heat_maps(session, exercise)[0]
        assert heat.nodes["C2"].wrong == 0 and heat.nodes["C2"].students == 2
        assert class_results.verdict_distribution(session, exercise) == [("passed", 2)]
        histogram = class_results.score_histogram(session, exercise)
        assert histogram[-1].count == 2 and sum(bucket.count for bucket in histogram) == 2
        assert class_results.common_divergences(session, exercise) == []


def test_the_grade_book_has_a_line_per_student_and_no_formulas(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    _class_of_two(database, settings, course, make_user)
    make_user(Role.STUDENT, course, name="Idle Student")
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    response = client.get(f"/teach/exercises/{exercise.id}/grades.csv")

    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == (f'attachment; filename="{SLUG}-grades.csv"')
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == [
        "name",
        "email",
        "LMS identity",
        "attempts",
        "latest verdict",
        "latest score",
        "best score",
        "grade",
        "max score",
        "late",
        "days late",
        "penalty %",
        "override",
        "override comment",
        "extension due (UTC)",
        "latest submission (UTC)",
        "misconception",
    ]
    by_name = {row[0]: row for row in rows[1:]}
    assert set(by_name) == {"'=cmd()", "Ada Right", "Idle Student"}
    ada = by_name["Ada Right"]
    assert ada[2:15] == [
        *("", "1", "passed", "100", "100", "100", "100"),
        *("no", "0", "0", "no", "", ""),
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", ada[15])
    assert ada[16] == ""  # passed: no misconception
    wrong = by_name["'=cmd()"]
    assert wrong[3:5] == ["1", "failed"]
    assert wrong[16] == "bounds kept but never used to prune"
    assert float(wrong[5]) < 100 and wrong[5] == wrong[6] == wrong[7]
    assert by_name["Idle Student"][3:] == [
        "0",
        "",
        "",
        "",
        "",
        "",
        "no",
        "0",
        "0",
        "no",
        "",
        "",
        "",
        "",
    ]


def test_regrading_previews_one_new_uncounted_run_per_student_and_grades_it(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    _, wrong = _class_of_two(database, settings, course, make_user)
    _submit(database, settings, course, wrong, "wrong_alpha_never_updated.py")
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    response = client.post(
        f"/teach/exercises/{exercise.id}/regrade",
        data={"csrf_token": csrf_token(client)},
        follow_redirects=True,
    )

    # Graded in this process once the request committed: the preview is ready.
    assert "What confirming would change" in response.get_data(as_text=True)
    with database.session() as session:
        runs = session.execute(
            select(
                GradingRun.submission_id,
                func.count(),
                func.max(GradingRun.state),
                func.min(case((GradingRun.counted, 1), else_=0)),
            )
            .group_by(GradingRun.submission_id)
            .order_by(GradingRun.submission_id)
        ).all()
    # Three submissions: the two latest have a second run, graded and not counted; the
    # first of the student who submitted twice keeps its one run.
    assert [(count, counted) for _, count, _, counted in runs] == [(2, 0), (1, 1), (2, 0)]
    assert {state for _, _, state, _ in runs} == {RunState.GRADED}


def test_the_grade_book_gives_an_lms_student_the_address_their_lms_gave(
    client: FlaskClient,
    database: Database,
    course: Course,
    make_user: UserFactory,
) -> None:
    from grader.models import Membership
    from grader.services import identities

    with database.session() as session:
        student = identities.lms_user(
            session, namespace="integration:9", subject="s-1", name="Lin", email="Lin@Uni.Example"
        )
        session.add(Membership(user_id=student.id, course_id=course.id, role=Role.STUDENT))
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, SLUG)
    assert exercise is not None

    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/teach/exercises/{exercise.id}/grades.csv").get_data(as_text=True)
            )
        )
    )

    (lin,) = [row for row in rows if row[0] == "Lin"]
    assert lin[1] == "lin@uni.example"
