"""The token API: submissions of the token's integration, the course's exercises, the
OpenAPI document that describes every route, problem documents under /api/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lms import integrations
from grader.models import Course, Exercise, Integration
from grader.services.submissions import submit
from tests.grader.lms import CORRECT, Lms, make_lms, problem, submission


@pytest.fixture
def lms(client: FlaskClient, database: Database, course: Course) -> Lms:
    return make_lms(client, database, course)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def other(client: FlaskClient, database: Database) -> Lms:
    """A second integration of another course."""
    with database.session() as session:
        elsewhere = Course(title="Elsewhere", join_code="ELSE")
        session.add(elsewhere)
        session.flush()
        made = integrations.create(session, elsewhere, "Canvas", [], None)
    assert made.secret and made.token
    return Lms(client, made.integration.id, made.secret, made.token)


def test_a_submission_is_read_with_its_integrations_token(lms: Lms, other: Lms) -> None:
    accepted = lms.post().get_json()
    url = f"/api/v1/submissions/{accepted['submission_id']}"
    found = lms.client.get(url, headers=bearer(lms.token))
    assert found.status_code == 200
    document = found.get_json()
    assert document["submission_id"] == accepted["submission_id"]
    assert (document["exercise"], document["attempt"], document["status"]) == (
        "aima-fig5.2-alphabeta",
        1,
        "graded",
    )
    assert (document["verdict"], document["score"], document["max_score"]) == ("passed", 100, 100)
    assert {"exercise", "verdict", "score", "max_score", "message", "cases"} <= set(
        document["report"]
    )
    # Another integration's token sees nothing, nor does a wrong or missing token.
    problem(lms.client.get(url, headers=bearer(other.token)), 404)
    problem(lms.client.get(url, headers=bearer("gtg_wrong")), 401)
    response = lms.client.get(url)
    problem(response, 401)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    problem(lms.client.get(url, headers={"Authorization": f"Basic {lms.token}"}), 401)
    problem(lms.client.get("/api/v1/submissions/999999", headers=bearer(lms.token)), 404)


def test_a_submission_made_on_the_website_is_not_the_integrations(
    lms: Lms, database: Database, settings: Settings, course: Course, make_user: Any
) -> None:
    student = make_user(course=course)
    with database.session() as session:
        exercise = session.scalar(select(Exercise).where(Exercise.slug == "aima-fig5.2-alphabeta"))
        assert exercise is not None
        submission_id = submit(session, settings, student, exercise, "a.py", CORRECT).id
    response = lms.client.get(f"/api/v1/submissions/{submission_id}", headers=bearer(lms.token))
    problem(response, 404)


def test_a_replaced_token_stops_working(lms: Lms, database: Database) -> None:
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        new = integrations.replace_token(integration).token
    assert new
    problem(lms.client.get("/api/v1/exercises", headers=bearer(lms.token)), 401)
    assert lms.client.get("/api/v1/exercises", headers=bearer(new)).status_code == 200


def test_a_disabled_integrations_token_is_403(lms: Lms, database: Database) -> None:
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        integration.enabled = False
    document = problem(lms.client.get("/api/v1/exercises", headers=bearer(lms.token)), 403)
    assert document["type"].endswith("/problems/integration-disabled")


def test_the_exercises_are_the_courses_published_ones(
    lms: Lms, database: Database, course: Course
) -> None:
    with database.session() as session:
        hidden = session.scalar(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "expectimax-dice"
            )
        )
        assert hidden is not None
        hidden.published = False
    response = lms.client.get("/api/v1/exercises", headers=bearer(lms.token))
    assert response.status_code == 200
    listed = {item["slug"]: item for item in response.get_json()["exercises"]}
    assert "expectimax-dice" not in listed
    assert listed["aima-fig5.2-alphabeta"]["algorithm"] == "alphabeta"
    assert listed["aima-fig5.2-alphabeta"]["max_score"] == 100
    assert listed["aima-fig5.2-alphabeta"]["title"]
    problem(lms.client.get("/api/v1/exercises"), 401)


# Problems everywhere under /api/, pages elsewhere.


def test_unknown_urls_and_methods_under_api_are_problems(client: FlaskClient) -> None:
    problem(client.get("/api/v1/nothing-here"), 404)
    problem(client.get("/api/v2/submissions"), 404)
    document = problem(client.delete("/api/v1/exercises"), 405)
    assert document["type"].endswith("/problems/method-not-allowed")


def test_other_paths_keep_their_error_pages(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "There is nothing here" in response.get_data(as_text=True)


def test_an_unexpected_error_is_a_problem_without_traceback(
    lms: Lms, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.lms import intake

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("the database melted")

    monkeypatch.setattr(intake, "submit", broken)
    response = lms.post()
    document = problem(response, 500)
    assert "melted" not in document["detail"]
    # The receipt was released: once the grader works again the same webhook goes through.
    monkeypatch.undo()
    assert lms.post().status_code == 202


def test_every_problem_type_is_explained(client: FlaskClient, lms: Lms) -> None:
    document = problem(lms.post(submission(exercise="nope")), 404)
    path = document["type"].removeprefix("http://localhost")
    explained = client.get(path)
    assert explained.status_code == 200
    assert explained.get_json()["status"] == 404
    problem(client.get("/api/v1/problems/no-such-problem"), 404)


# The OpenAPI document.


def _described(app: Flask) -> list[tuple[str, str]]:
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("api."):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule).removeprefix("/api/v1")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append((path, method.lower()))
    return routes


def test_the_openapi_document_describes_every_route(app: Flask, client: FlaskClient) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    document = response.get_json()
    assert document["openapi"].startswith("3.1")
    assert document["servers"] == [{"url": "/api/v1"}]
    routes = _described(app)
    assert len(routes) >= 5
    for path, method in routes:
        assert method in document["paths"].get(path, {}), f"{method.upper()} {path} not described"
        operation = document["paths"][path][method]
        assert operation["responses"], f"{method.upper()} {path} has no responses"
    described = {(path, method) for path, item in document["paths"].items() for method in item}
    assert described == set(routes), "the document describes routes that do not exist"


def test_the_openapi_document_names_the_headers_and_problems(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    webhook = document["paths"]["/lms/submissions"]["post"]
    names = set()
    for parameter in webhook["parameters"]:
        ref = parameter["$ref"].rsplit("/", 1)[-1]
        names.add(document["components"]["parameters"][ref]["name"])
    assert {"webhook-id", "webhook-timestamp", "webhook-signature"} <= names
    assert "Idempotency-Key" not in names  # not signed: never the idempotency key
    for status in ("400", "401", "404", "409", "413", "415", "422", "429", "503"):
        content = webhook["responses"][status]["content"]
        assert "application/problem+json" in content, status
    assert document["components"]["securitySchemes"]["apiToken"]["scheme"] == "bearer"
    refs = re.findall(r'"\$ref": "#/components/(\w+)/(\w+)"', str(document).replace("'", '"'))
    for section, name in refs:
        assert name in document["components"][section], f"dangling $ref {section}/{name}"
