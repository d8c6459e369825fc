"""Exercises of other courses' contracts through the real app: what the page says students
write, the starter file, and a submission written as the course's students write it,
graded in this process by the sandbox and told node by node."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from grader.db import Database
from grader.models import Course, User
from tests.grader.conftest import UserFactory, analysed, login
from tests.grader.web.test_student_pages import drawn_nodes, exercise_id, opened_node, upload

DATA = Path(__file__).resolve().parents[2] / "worker" / "data"
CS188 = "cs188-alphabeta-one-ghost"
MIT = "mit6034-toy-alphabeta"


@pytest.fixture(autouse=True)
def _analysed(database: Database, settings: object, course: Course) -> None:
    analysed(database, settings, course, CS188, MIT)  # type: ignore[arg-type]


@pytest.fixture
def student(client: FlaskClient, course: Course, make_user: UserFactory) -> User:
    user = make_user(course=course)
    login(client, user)
    return user


def cs188_file(agent: str) -> bytes:
    folder = DATA / "cs188_agents"
    return (
        (folder / "_base.py").read_text() + "\n\n" + (folder / f"{agent}.py").read_text()
    ).encode()


def test_a_cs188_exercise_says_what_its_students_write(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    exercise = exercise_id(database, course, CS188)
    page = client.get(f"/exercises/{exercise}").get_data(as_text=True)
    assert "Berkeley CS188, multi-agent search" in page
    assert "AlphaBetaAgent(depth=2).getAction(gameState)" in page
    assert "gameState.generateSuccessor(agentIndex, action)" in page
    assert "game.chance_outcomes" not in page
    starter = client.get(f"/exercises/{exercise}/starter.py").get_data(as_text=True)
    compile(starter, "multiAgents.py", "exec")
    assert "class AlphaBetaAgent(MultiAgentSearchAgent):" in starter
    assert "from pacman import GameState" in starter


def test_a_cs188_agent_that_generates_too_much_is_told_which_states(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    exercise = exercise_id(database, course, CS188)
    response = upload(
        client, exercise, cs188_file("wrong_alphabeta_generates_first"), "multiAgents.py"
    )
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    nodes = drawn_nodes(client, page)[0]
    assert nodes["T"]["v"] == "extra" and nodes["M"]["v"] == "extra"
    assert "T was generated, but the search prunes it at G" in opened_node(client, page, "T")["m"]


def test_a_cs188_agent_as_the_course_writes_it_passes(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    exercise = exercise_id(database, course, CS188)
    response = upload(client, exercise, cs188_file("correct_alphabeta"), "multiAgents.py")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Graded" in page and "100 / 100" in page


def test_the_games_labs_file_passes_and_a_miscount_is_told(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    exercise = exercise_id(database, course, MIT)
    page = client.get(f"/exercises/{exercise}").get_data(as_text=True)
    assert "MIT 6.034, games lab" in page and "minimax_search_alphabeta(state" in page
    lab = DATA / "mit6034"
    response = upload(client, exercise, (lab / "correct_lab.py").read_bytes(), "lab3.py")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Graded" in page and "100 / 100" in page
    response = upload(
        client, exercise, (lab / "wrong_uncounted_heuristic.py").read_bytes(), "lab3.py"
    )
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "says it made 1 static evaluation; the search makes 4" in page
