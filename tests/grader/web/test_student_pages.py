"""The students' pages, through the real app: the exercise list, an exercise, submitting
(graded in this process by the sandbox through the eager queue) and the feedback."""

from __future__ import annotations

import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import event, select
from werkzeug.test import TestResponse

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, Role, Submission, User
from grader.services.exercise_store import folder_files, save_version
from grader.services.submissions import submit
from grader.web.student_work import ATTEMPTS_SHOWN
from tests.grader.conftest import (
    UserFactory,
    analysed,
    configured,
    csrf_token,
    login,
    stored_report,
)

LIBRARY = Path(__file__).resolve().parents[3] / "exercises" / "implementations"
CORRECT = LIBRARY / "alphabeta" / "correct_fail_hard.py"
NO_PRUNING = LIBRARY / "alphabeta" / "wrong_no_pruning.py"
SLUG = "aima-fig5.2-alphabeta"


@pytest.fixture(autouse=True)
def _analysed(request: pytest.FixtureRequest) -> None:
    """Figure 5.2's version analysed, as a worker does once it is saved: its pages draw
    the trees the analysis kept."""
    if "course" in request.fixturenames:
        settings = request.getfixturevalue("settings")
        analysed(
            request.getfixturevalue("database"), settings, request.getfixturevalue("course"), SLUG
        )


def exercise_id(database: Database, course: Course, slug: str = SLUG) -> int:
    with database.session() as session:
        found = session.scalar(
            select(Exercise.id).where(Exercise.course_id == course.id, Exercise.slug == slug)
        )
    assert found is not None
    return found


def fetched(client: FlaskClient, page: str, kind: str) -> list[dict[str, Any]]:
    """The documents the page's scripts fetch from its ``data-<kind>-url`` attributes."""
    found = []
    for url in re.findall(rf'data-{kind}-url="([^"]+)"', page):
        response = client.get(unescape(url))
        assert response.status_code == 200, (url, response.status_code)
        found.append(json.loads(response.get_data(as_text=True)))
    return found


def drawn_nodes(client: FlaskClient, page: str) -> list[dict[str, dict[str, object]]]:
    """The nodes of each tree the page's tree views draw, by name (from the drawing its
    script fetches)."""
    trees = []
    for document in fetched(client, page, "tree"):
        columns = document["columns"]
        assert isinstance(columns, dict)
        rows = [
            {key: column[at] for key, column in columns.items() if column[at] is not None}
            for at in range(len(columns["n"]))
        ]
        trees.append({row["n"]: row for row in rows})
    assert trees, "no tree drawn"
    return trees


def opened_node(client: FlaskClient, page: str, name: str) -> dict[str, Any]:
    """Every key of node ``name`` of the page's (first) tree, as its script fetches them
    when the node is opened."""
    (document,) = fetched(client, page, "tree")[:1]
    index = document["columns"]["n"].index(name)
    (nodes_url,) = re.findall(r'data-nodes-url="([^"]+)"', page)[:1]
    response = client.get(unescape(nodes_url) + str(index))
    assert response.status_code == 200
    (item,) = response.get_json()["nodes"]
    assert item["i"] == index and item["n"] == name
    return dict(item)


def upload(
    client: FlaskClient, exercise: int, data: bytes, filename: str = "search.py"
) -> TestResponse:
    return client.post(
        f"/exercises/{exercise}/submissions",
        data={"csrf_token": csrf_token(client), "upload": (io.BytesIO(data), filename)},
        content_type="multipart/form-data",
    )


def paste(client: FlaskClient, exercise: int, text: str) -> TestResponse:
    return client.post(
        f"/exercises/{exercise}/submissions",
        data={"csrf_token": csrf_token(client), "pasted": text},
    )


def submitted(
    database: Database,
    settings: Settings,
    student: User,
    exercise: int,
    source: str,
    *,
    count: int = 1,
) -> list[int]:
    """The ids of ``count`` submissions of ``source`` made directly (queued, not graded)."""
    with database.session() as session:
        found = session.get(Exercise, exercise)
        user = session.get(User, student.id)
        assert found is not None and user is not None
        made = [submit(session, settings, user, found, "search.py", source) for _ in range(count)]
        session.flush()
        return [submission.id for submission in made]


@pytest.fixture
def student(client: FlaskClient, course: Course, make_user: UserFactory) -> User:
    user = make_user(course=course)
    login(client, user)
    return user


def test_signed_out_visitors_are_sent_to_sign_in(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_the_list_shows_only_the_students_courses(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    with database.session() as session:
        other = Course(title="Somebody Else's Course", join_code="OTHER")
        session.add(other)
        session.flush()
        session.add(Exercise(course_id=other.id, slug="secret", title="Not For You"))
    login(client, make_user(course=course))
    page = client.get("/").get_data(as_text=True)
    assert "Search 101" in page
    assert "Alpha-beta pruning on AIMA Figure 5.2" in page
    assert "Somebody Else" not in page and "Not For You" not in page


def test_the_exercise_page_shows_the_statement_conventions_and_trees(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    page = client.get(f"/exercises/{exercise_id(database, course)}").get_data(as_text=True)
    assert "<code>max_value(game, state, alpha, beta)</code>" in page
    assert "max_value(game, state, alpha, beta), min_value(game, state, alpha, beta)" in page
    assert "MAX returns when v &gt;= beta" in page
    assert "game.chance_outcomes(state)" in page
    assert '<svg class="tree"' in page and 'data-node="C2"' in page
    assert 'name="csrf_token"' in page and 'type="file"' in page and "<textarea" in page


def page_text(html: str) -> str:
    """A page's text, tags dropped and spaces squeezed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def published_with(database: Database, course: Course, scoring: str) -> int:
    """Figure 5.2's exercise, published anew with ``scoring`` added to its exercise.yaml."""
    files = folder_files(LIBRARY.parent / SLUG)
    files["exercise.yaml"] += scoring
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id(database, course))
        assert exercise is not None and exercise.current_version is not None
        statement = exercise.current_version.statement
        exercise.current_version_id = save_version(session, exercise, files, statement).id
        return exercise.id


def test_the_exercise_page_says_how_the_score_is_made_before_the_first_attempt(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    page = client.get(f"/exercises/{exercise_id(database, course)}").get_data(as_text=True)
    text = page_text(page)
    assert "How your score is made" in text
    assert (
        "Each public tree: 30 points for the root's value, 10 for the move at the root, 60 for "
        "the node verdicts"
    ) in text
    assert "The hidden trees (8) carry half of the score, the public trees the other half." in text
    assert (
        "a failed one earns part of them by the one reason it gives, and by nothing else: "
        "wrong value at the root 0 %, "
        "other nodes searched than the reference's (visits, order or pruning) 30 %, "
        "wrong values or alpha-beta bounds below the root 60 %, wrong decision 90 %"
    ) in text
    assert "wrong count of static evaluations" not in text  # a course's that counts them

    every_tree = published_with(
        database, course, "scoring: {hidden_share: per_tree, hidden_credit: whole}\n"
    )
    text = page_text(client.get(f"/exercises/{every_tree}").get_data(as_text=True))
    assert "Every tree weighs the same. The hidden trees (8) carry 88.9 % of the score" in text
    assert "the public trees 11.1 %" in text and "a failed one earns nothing;" in text

    none_hidden = published_with(database, course, "hidden_trees: {count: 0}\n")
    text = page_text(client.get(f"/exercises/{none_hidden}").get_data(as_text=True))
    assert "This exercise has no hidden trees: the public trees carry all of your score." in text


def test_viewing_an_exercise_again_does_not_read_its_files(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    # A version's files (its tree files may be megabytes) are read once, to write them out.
    path = f"/exercises/{exercise_id(database, course)}"
    assert client.get(path).status_code == 200
    statements: list[str] = []

    def note(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(database.engine, "before_cursor_execute", note)
    try:
        assert client.get(path).status_code == 200
    finally:
        event.remove(database.engine, "before_cursor_execute", note)
    read = [text for text in statements if re.search(r"exercise_versions(_\d+)?\.files\b", text)]
    assert statements and not read


def test_the_starter_file_downloads_as_python(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = client.get(f"/exercises/{exercise_id(database, course)}/starter.py")
    assert response.status_code == 200
    assert response.mimetype == "text/x-python"
    assert "attachment" in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    compile(text, "starter.py", "exec")
    assert "def max_value(game, state, alpha, beta):" in text


def test_exercises_of_other_courses_and_unknown_ones_are_not_found(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user())  # in no course
    assert client.get(f"/exercises/{exercise_id(database, course)}").status_code == 404
    assert client.get(f"/exercises/{exercise_id(database, course)}/starter.py").status_code == 404
    assert client.get("/exercises/999999").status_code == 404


def test_a_correct_upload_is_graded_with_pruned_nodes_drawn_cut(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    exercise = exercise_id(database, course)
    response = upload(client, exercise, CORRECT.read_bytes(), "correct_fail_hard.py")
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Graded" in page and "100 / 100" in page
    nodes = drawn_nodes(client, page)[0]
    for name in ("C2", "C3"):
        assert nodes[name]["v"] == "pruned"
        assert nodes[name]["r"] == "p" and nodes[name]["cut"] == 1  # drawn cut
    assert "Your search went exactly as the reference search." in page
    assert fetched(client, page, "replay")
    assert "Hidden trees" in page and "hidden-1" in page


def test_a_pasted_search_without_pruning_is_told_where_it_went_wrong(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    exercise = exercise_id(database, course)
    response = paste(client, exercise, NO_PRUNING.read_text(encoding="utf-8"))
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    nodes = drawn_nodes(client, page)[0]
    assert nodes["C2"]["v"] == "extra" and nodes["C3"]["v"] == "extra"
    heading = 'Where your search first differs, at <a class="node-link" href="#node-fig5.2-C">C</a>'
    assert heading in page
    assert "so C could return at once; your search went on to C2." in page
    (replay,) = fetched(client, page, "replay")
    assert replay["student"][replay["differs"]]["text"] == "enter C2 (alpha = 3, beta = 2)"
    assert replay["reference"][replay["differs"]]["text"].startswith("C returns 2 at once")


def test_hidden_trees_show_only_their_verdict_and_reason(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = paste(client, exercise_id(database, course), NO_PRUNING.read_text(encoding="utf-8"))
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    with database.session() as session:
        run = session.scalars(select(Submission)).one().latest_run
        assert run is not None
        report = stored_report(database, run.id)
        assert report is not None
        hidden = [case for case in report["cases"] if case["hidden"]]
    assert hidden and all("nodes" not in case and "replay" not in case for case in hidden)
    assert page.count('data-case="') == 1  # only the public tree is drawn
    (drawn,) = drawn_nodes(client, page)
    assert set(drawn) == {"A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"}
    for case in hidden:
        assert escape(case.get("message", "")) in page


def test_a_wrong_search_is_told_what_it_looks_like_beside_its_first_divergence(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = paste(client, exercise_id(database, course), NO_PRUNING.read_text(encoding="utf-8"))
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    with database.session() as session:
        run = session.scalars(select(Submission)).one().latest_run
        assert run is not None
        report = stored_report(database, run.id)
    assert report is not None and "diagnosis" in report
    diagnosis = report["diagnosis"]
    nearest = diagnosis["misconceptions"][0]
    assert "alphabeta/wrong_no_pruning" in nearest["implementations"]
    box = page[page.index('<aside class="diagnosis-box"') :]
    box = box[: box.index("</aside>")]
    # Beside the first divergence: right after its box, in the public tree's section.
    assert page.index("Where your search first differs") < page.index("diagnosis-box")
    assert page.index("diagnosis-box") < page.index('class="tree-views"')
    assert page.count('class="diagnosis-box"') == 1
    for text in (diagnosis["summary"], nearest["name"], nearest["explanation"],
                 nearest["pseudocode"], nearest["hint"]):  # fmt: skip
        assert str(escape(text)) in box, text
    assert "def " not in box and "import" not in box  # never code


def test_a_correct_search_has_no_diagnosis_box(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = upload(client, exercise_id(database, course), CORRECT.read_bytes())
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Graded" in page and "100 / 100" in page
    assert "diagnosis-box" not in page and "What your search looks like" not in page


def test_the_status_answers_in_json(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = upload(client, exercise_id(database, course), CORRECT.read_bytes())
    status = client.get(response.headers["Location"] + "/status").get_json()
    assert status["state"] == "graded"
    assert (status["verdict"], status["score"], status["max_score"]) == ("passed", 100.0, 100.0)
    assert status["position"] is None
    assert status["feedback_url"].endswith("#feedback")


def test_a_compile_error_names_the_line(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = paste(client, exercise_id(database, course), "def max_value(game, state):\n  (\n")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "compile error" in page and "line 2" in page


def test_another_students_submission_is_not_found(
    app: Flask, database: Database, course: Course, make_user: UserFactory
) -> None:
    first, second = app.test_client(), app.test_client()
    login(first, make_user(course=course))
    login(second, make_user(course=course))
    response = upload(first, exercise_id(database, course), CORRECT.read_bytes())
    location = response.headers["Location"]
    assert second.get(location).status_code == 404
    assert second.get(location + "/status").status_code == 404
    assert second.get("/submissions/999999").status_code == 404
    teacher = app.test_client()
    login(teacher, make_user(role=Role.INSTRUCTOR, course=course))
    assert teacher.get(location).status_code == 200


def test_the_rate_limit_says_when_to_submit_again(
    app: Flask, client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    configured(app, submission_min_gap_seconds=60)
    exercise = exercise_id(database, course)
    assert upload(client, exercise, CORRECT.read_bytes()).status_code == 302
    response = upload(client, exercise, CORRECT.read_bytes())
    assert response.status_code == 429
    page = response.get_data(as_text=True)
    assert re.search(r"you can submit again at \d\d:\d\d:\d\d UTC", page)
    assert int(response.headers["Retry-After"]) > 0
    assert "You can submit again at" in client.get(f"/exercises/{exercise}").get_data(as_text=True)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"   \n", "the file is empty"),
        (b"def max_value():\x00\n", "the file is binary"),
        (b"# caf\xe9\n", "the file is not UTF-8 text: line 1 holds the byte 0xe9"),
    ],
)
def test_unusable_files_are_refused_with_the_reason(
    client: FlaskClient,
    database: Database,
    course: Course,
    student: object,
    data: bytes,
    message: str,
) -> None:
    response = upload(client, exercise_id(database, course), data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with database.session() as session:
        assert session.scalars(select(Submission)).all() == []


def test_an_empty_paste_is_refused(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    response = paste(client, exercise_id(database, course), "")
    assert response.status_code == 400
    assert "the file is empty" in response.get_data(as_text=True)


def test_a_file_over_the_limit_gets_a_readable_413(
    app: Flask, client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    configured(app, upload_limit_bytes=100)
    response = upload(client, exercise_id(database, course), CORRECT.read_bytes())
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "the limit is 100 bytes" in page and "Traceback" not in page


def test_a_request_over_flasks_limit_gets_a_readable_413(
    app: Flask, client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    too_big = b"#" * (app.config["MAX_CONTENT_LENGTH"] + 1)
    response = upload(client, exercise_id(database, course), too_big)
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "The upload is too large: the limit is 256 KiB." in page
    assert "Traceback" not in page


@pytest.mark.parametrize("token", [None, "tampered"])
def test_submitting_without_a_valid_csrf_token_is_refused(
    client: FlaskClient, database: Database, course: Course, student: object, token: str | None
) -> None:
    data: dict[str, object] = {"pasted": CORRECT.read_text(encoding="utf-8")}
    if token is not None:
        data["csrf_token"] = token
    response = client.post(f"/exercises/{exercise_id(database, course)}/submissions", data=data)
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)
    with database.session() as session:
        assert session.scalars(select(Submission)).all() == []


def test_earlier_attempts_are_listed(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    exercise = exercise_id(database, course)
    paste(client, exercise, NO_PRUNING.read_text(encoding="utf-8"))
    second = upload(client, exercise, CORRECT.read_bytes())
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert re.search(r"<td>1</td>.*?failed", page, re.S)
    assert re.search(r"<td>2</td>.*?passed", page, re.S)
    listing = client.get("/").get_data(as_text=True)
    assert "100 / 100" in listing


def test_times_are_written_in_utc_for_the_script_to_show_in_the_viewers_zone(
    client: FlaskClient, database: Database, course: Course, student: object
) -> None:
    exercise = exercise_id(database, course)
    made = upload(client, exercise, CORRECT.read_bytes())
    page = client.get(made.headers["Location"]).get_data(as_text=True)
    stamps = re.findall(
        r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)" data-local>([^<]*) UTC</time>',
        page,
    )
    # The title and the attempts table; each text is its own instant's, in UTC.
    assert len(stamps) >= 2
    for instant, text in stamps:
        assert instant.replace("T", " ").removesuffix("Z") == text
    assert "js/localtime.js" in page


def test_only_the_most_recent_attempts_are_listed(
    database: Database, settings: Settings, course: Course, student: User, client: FlaskClient
) -> None:
    exercise = exercise_id(database, course)
    submitted(database, settings, student, exercise, "pass\n", count=ATTEMPTS_SHOWN + 2)
    page = client.get(f"/exercises/{exercise}").get_data(as_text=True)
    numbers = [int(n) for n in re.findall(r"<tr[^>]*>\s*<td>(\d+)</td>", page)]
    assert numbers == list(range(ATTEMPTS_SHOWN + 2, 2, -1))


def test_a_queued_submission_shows_its_place_and_polls(
    client: FlaskClient, database: Database, settings: Settings, course: Course, student: User
) -> None:
    (queued,) = submitted(database, settings, student, exercise_id(database, course), "x = 1\n")
    status = client.get(f"/submissions/{queued}/status").get_json()
    assert (status["state"], status["position"], status["feedback_url"]) == ("queued", 1, None)
    page = client.get(f"/submissions/{queued}").get_data(as_text=True)
    assert "number 1 in the queue" in page
    assert f'data-status-url="/submissions/{queued}/status"' in page
    assert "data-finished" not in page and "live.js" in page


def test_an_unpublished_exercise_is_hidden_from_students_only(
    app: Flask, client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    exercise = exercise_id(database, course)
    with database.session() as session:
        found = session.get(Exercise, exercise)
        assert found is not None
        found.published = False
    login(client, make_user(course=course))
    assert client.get(f"/exercises/{exercise}").status_code == 404
    assert f'href="/exercises/{exercise}"' not in client.get("/").get_data(as_text=True)
    teacher = app.test_client()
    login(teacher, make_user(role=Role.INSTRUCTOR, course=course))
    assert teacher.get(f"/exercises/{exercise}").status_code == 200
