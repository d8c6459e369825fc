"""The documents the feedback page's scripts fetch (grader.web.tree_data), through the real
app on a search without pruning graded in this process on Figure 5.2: who may read them
(as who may read the page: the student, the course's instructors), their cache headers
(an ETag known before the document is built; checked again at every use), what they hold
(the same as the whole report read back gives), and the page, which holds none of a
tree's nodes and still names the first divergence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select, update

from grader.config import Settings
from grader.db import Database
from grader.models import (
    Course,
    ExerciseVersion,
    GradingRun,
    Role,
    RunState,
    Submission,
    TreeResult,
    User,
)
from grader.services import analyses, report_parts
from grader.services.results import load_report
from grader.web.feedback import DRAWN, drawing_document, tree_document
from grader.web.replay import replay_data
from reference.report import TreeCase
from reference.tree import Tree
from tests.grader.conftest import UserFactory, analysed, counted, login
from tests.grader.web.test_student_pages import NO_PRUNING, SLUG, exercise_id, paste


@dataclass(frozen=True)
class Graded:
    """A student's graded submission and the addresses of its first tree's documents."""

    student: User
    submission: int
    run: int
    page: str
    drawing: str
    nodes: str
    replay: str


@pytest.fixture
def graded(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> Graded:
    analysed(database, settings, course, SLUG)
    student = make_user(course=course)
    login(client, student)
    response = paste(client, exercise_id(database, course), NO_PRUNING.read_text(encoding="utf-8"))
    assert response.status_code == 302
    path = response.headers["Location"].split("#")[0]
    page = client.get(path).get_data(as_text=True)
    with database.session() as session:
        submission = session.scalars(select(Submission)).one()
        assert submission.latest_run is not None
        run = submission.latest_run.id

    def url(kind: str) -> str:
        found = re.search(rf'data-{kind}-url="([^"]+)"', page)
        assert found is not None, f"no data-{kind}-url"
        return unescape(found.group(1))

    return Graded(student, submission.id, run, path, url("tree"), url("nodes"), url("replay"))


def documents(graded: Graded) -> list[str]:
    """A tree's three documents: the drawing, the root's details, the replay."""
    return [graded.drawing, graded.nodes + "0", graded.replay]


def drawn_tree(database: Database, graded: Graded) -> tuple[Tree, TreeCase]:
    """The tree drawn and the first case of the whole report read back (load_report)."""
    with database.session() as session:
        submission = session.get(Submission, graded.submission)
        assert submission is not None and submission.latest_run is not None
        run = submission.latest_run
        report = load_report(session, run)
        version = session.get(ExerciseVersion, run.exercise_version_id)
        assert report is not None and version is not None
        result = analyses.result_for(session, version)[1]
        assert result is not None
        case = report.cases[0]
        return result.drawings()[case.name].tree, case


# -- who may read them ------------------------------------------------------------------


def test_the_student_and_the_courses_instructor_read_them(
    client: FlaskClient, graded: Graded, course: Course, make_user: UserFactory
) -> None:
    for path in documents(graded):
        assert client.get(path).status_code == 200, path
    login(client, make_user(Role.INSTRUCTOR, course))
    for path in documents(graded):
        assert client.get(path).status_code == 200, path


def test_another_student_of_the_course_is_not_found(
    client: FlaskClient, graded: Graded, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(course=course))
    for path in documents(graded):
        assert client.get(path).status_code == 404, path


def test_an_instructor_of_another_course_is_not_found(
    client: FlaskClient, database: Database, graded: Graded, make_user: UserFactory
) -> None:
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER1")
        session.add(other)
    login(client, make_user(Role.INSTRUCTOR, other))
    for path in documents(graded):
        assert client.get(path).status_code == 404, path


def test_a_visitor_signed_out_is_sent_to_sign_in(client: FlaskClient, graded: Graded) -> None:
    signed_out = client.application.test_client()
    for path in documents(graded):
        response = signed_out.get(path)
        assert response.status_code == 302 and "/login" in response.headers["Location"], path


def test_a_hidden_tree_is_not_found(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    with database.session() as session:
        hidden = session.scalars(
            select(TreeResult.position).where(
                TreeResult.run_id == graded.run, TreeResult.hidden.is_(True)
            )
        ).all()
    assert hidden
    with database.session() as session:
        run = session.get(GradingRun, graded.run)
        assert run is not None
        # Refused where the documents are read, whatever else they would find there.
        assert report_parts.public_tree(session, run, 0) is not None
        assert all(report_parts.public_tree(session, run, at) is None for at in hidden)
    base = graded.drawing.rsplit("/", 1)[0]
    for position in hidden:
        for path in (
            f"{base}/{position}",
            f"{base}/{position}/nodes/0",
            f"{base}/{position}/replay",
        ):
            assert client.get(path).status_code == 404, path
    assert client.get(f"{base}/99").status_code == 404


def test_another_submissions_run_is_not_found(
    client: FlaskClient, database: Database, course: Course, graded: Graded
) -> None:
    # The same student's second attempt, graded: its run under the first's address.
    response = paste(client, exercise_id(database, course), NO_PRUNING.read_text(encoding="utf-8"))
    assert response.status_code == 302
    with database.session() as session:
        second = session.scalars(select(Submission).where(Submission.id != graded.submission)).one()
        assert second.latest_run is not None
        other_run = second.latest_run.id
    for path in documents(graded):
        mixed = path.replace(f"/runs/{graded.run}/", f"/runs/{other_run}/")
        assert client.get(mixed).status_code == 404, mixed
        own = mixed.replace(f"/submissions/{graded.submission}/", f"/submissions/{second.id}/")
        assert client.get(own).status_code == 200, own


def test_a_run_not_graded_is_not_found(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    # Its rows kept, its state another: only a graded run's documents are read.
    with database.session() as session:
        session.execute(
            update(GradingRun).where(GradingRun.id == graded.run).values(state=RunState.RUNNING)
        )
    for path in documents(graded):
        assert client.get(path).status_code == 404, path


def test_a_node_beyond_the_tree_is_not_found(client: FlaskClient, graded: Graded) -> None:
    assert client.get(graded.nodes + "12").status_code == 200  # Figure 5.2: 13 nodes
    assert client.get(graded.nodes + "13").status_code == 404


# -- their cache headers -----------------------------------------------------------------


def test_each_is_kept_private_checked_at_each_use_and_revalidated_by_its_etag(
    client: FlaskClient, graded: Graded
) -> None:
    tags = set()
    for path in documents(graded):
        response = client.get(path)
        assert response.headers["Cache-Control"] == "private, no-cache", path
        assert "Cookie" in response.headers["Vary"]
        etag = response.headers["ETag"]
        tags.add(etag)
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.get_data() == b"", path
        assert again.headers["ETag"] == etag
        assert again.headers["Cache-Control"] == "private, no-cache"
        stale = client.get(path, headers={"If-None-Match": '"another"'})
        assert stale.status_code == 200 and stale.get_data() == response.get_data()
    assert len(tags) == 3  # one per document


def test_an_etag_opens_nothing_to_another_user(
    client: FlaskClient, graded: Graded, course: Course, make_user: UserFactory
) -> None:
    etags = {path: client.get(path).headers["ETag"] for path in documents(graded)}
    login(client, make_user(course=course))
    for path, etag in etags.items():
        assert client.get(path, headers={"If-None-Match": etag}).status_code == 404, path


def test_a_revalidation_builds_nothing(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    etag = client.get(graded.drawing).headers["ETag"]
    with counted(database) as statements:
        assert client.get(graded.drawing, headers={"If-None-Match": etag}).status_code == 304
    assert not [sql for sql in statements if "node_results" in sql]


# -- what they hold ------------------------------------------------------------------------


def test_the_drawing_holds_what_the_views_draw_as_the_whole_report_gives_it(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    drawing = client.get(graded.drawing).get_json()
    tree, case = drawn_tree(database, graded)
    assert drawing == drawing_document(tree, case)
    assert set(drawing["columns"]) <= set(DRAWN)
    assert not {"m", "e", "c", "g", "rw"} & set(drawing["columns"])
    columns = drawing["columns"]
    at = columns["n"].index("C2")
    assert (columns["v"][at], columns["r"][at], columns["cut"][at]) == ("extra", "p", 1)
    assert drawing["divergence"] == "C"


def test_each_nodes_details_are_its_every_key_as_the_whole_report_gives_them(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    tree, case = drawn_tree(database, graded)
    whole = tree_document(tree, case)
    columns = whole["columns"]
    for at, name in enumerate(columns["n"]):
        (item,) = client.get(graded.nodes + str(at)).get_json()["nodes"]
        expected = {key: column[at] for key, column in columns.items() if column[at] is not None}
        assert item == {"i": at, **expected}, name
    (c2,) = client.get(graded.nodes + str(columns["n"].index("C2"))).get_json()["nodes"]
    assert c2["v"] == "extra" and c2["m"]  # its sentence


def test_the_replay_is_the_one_the_whole_report_gives(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    replay = client.get(graded.replay).get_json()
    _tree, case = drawn_tree(database, graded)
    assert replay == replay_data(case)
    assert replay["student"][replay["differs"]]["text"] == "enter C2 (alpha = 3, beta = 2)"


# -- the page --------------------------------------------------------------------------------


def test_the_page_holds_no_node_and_reads_no_node_row_yet_names_the_first_divergence(
    client: FlaskClient, database: Database, graded: Graded
) -> None:
    with counted(database) as statements:
        page = client.get(graded.page).get_data(as_text=True)
    assert not [sql for sql in statements if "node_results" in sql]
    assert 'type="application/json"' not in page
    assert "enter C2" not in page  # a replay's step
    heading = 'Where your search first differs, at <a class="node-link" href="#node-fig5.2-C">C</a>'
    assert heading in page
    assert '<button type="button" class="tv-divergence">Go to first divergence (C)</button>' in page


def test_the_pages_summary_is_the_whole_report_without_its_nodes_and_replays(
    database: Database, graded: Graded
) -> None:
    with database.session() as session:
        run = session.get(GradingRun, graded.run)
        assert run is not None
        whole = load_report(session, run)
        found = report_parts.summary(session, run)
    assert whole is not None and found is not None
    assert found.replayed == tuple(case.replay is not None for case in whole.cases)
    assert any(found.replayed)
    for mine, theirs in zip(found.report.cases, whole.cases, strict=True):
        assert mine.nodes is None and mine.replay is None
        assert mine.verdict_counts() == theirs.verdict_counts()
    left_out = {"cases": {"__all__": {"nodes", "replay", "nodes_omitted"}}}
    assert found.report.model_dump(exclude=left_out) == whole.model_dump(exclude=left_out)
