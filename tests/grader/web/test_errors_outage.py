"""While the database cannot be reached (or its pool has no free connection), pages
answer a readable 503 page and the API (the LMS webhook included) a 503 problem document,
both with Retry-After: never a 500."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from grader.config import Settings
from grader.db import Database
from grader.web import create_app
from grader.web.errors import RETRY_AFTER_SECONDS

CLOSED_POSTGRESQL = "postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=5"
"""Nothing listens on port 1: every connection is refused at once."""


def outage_app(settings: Settings, url: str) -> Flask:
    return create_app(replace(settings, database_url=url))


@pytest.fixture(params=["postgresql-closed-port", "sqlite-missing-folder"])
def down(request: pytest.FixtureRequest, settings: Settings, tmp_path: Path) -> Flask:
    """The app on a database it cannot open: a closed PostgreSQL port, or a SQLite file in
    a folder that does not exist (SQLite cannot create it: "unable to open database")."""
    if request.param == "postgresql-closed-port":
        return outage_app(settings, CLOSED_POSTGRESQL)
    return outage_app(settings, f"sqlite:///{tmp_path / 'gone' / 'grader.db'}")


def signed_in(app: Flask) -> FlaskClient:
    """A client whose session names a user, so that every page asks the database."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = "1:0"
        session["_fresh"] = True
    return client


@pytest.mark.parametrize("path", ["/", "/exercises/1", "/submissions/1", "/teach/"])
def test_a_page_is_a_readable_503(down: Flask, path: str) -> None:
    response = signed_in(down).get(path)

    page = response.get_data(as_text=True)
    assert response.status_code == 503, page
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.mimetype == "text/html"
    assert "<h1>503 Service Unavailable</h1>" in page
    assert "cannot reach its database" in page
    assert "Traceback" not in page and "OperationalError" not in page


def test_a_sign_in_attempt_is_a_readable_503(down: Flask) -> None:
    down.config["WTF_CSRF_ENABLED"] = False
    client = down.test_client()

    response = client.post("/login", data={"email": "a@example.edu", "password": "x" * 12})

    assert response.status_code == 503
    # The sign-in form's rate limit (Flask-Limiter) writes its own Retry-After here.
    assert 0 < int(response.headers["Retry-After"]) <= RETRY_AFTER_SECONDS
    assert "cannot reach its database" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/v1/exercises"), ("GET", "/api/v1/submissions/1"),
     ("POST", "/api/v1/lms/submissions")],
)  # fmt: skip
def test_the_api_answers_a_503_problem(down: Flask, method: str, path: str) -> None:
    response = down.test_client().open(
        path,
        method=method,
        headers={"Authorization": "Bearer some-integration-token"},
        data=b'{"exercise": "x"}' if method == "POST" else None,
        content_type="application/json",
    )

    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.mimetype == "application/problem+json"
    problem = json.loads(response.get_data(as_text=True))
    assert problem["status"] == 503
    assert problem["type"].endswith("/api/v1/problems/unavailable")
    assert "database" in problem["detail"]
    assert set(problem) == {"type", "title", "status", "detail"}


def test_a_page_that_needs_no_database_still_answers(down: Flask) -> None:
    response = down.test_client().get("/login")

    assert response.status_code == 200


def test_a_pool_with_no_free_connection_is_a_503(settings: Settings, pg_url: str) -> None:
    database = Database(pg_url)
    database.engine = create_engine(pg_url, pool_size=1, max_overflow=0, pool_timeout=0.5)
    database.sessions = sessionmaker(database.engine, expire_on_commit=False)
    app = create_app(replace(settings, database_url=pg_url), database)
    try:
        with database.engine.connect():  # the pool's only connection, held
            page = signed_in(app).get("/")
            api = app.test_client().get(
                "/api/v1/exercises", headers={"Authorization": "Bearer some-token"}
            )
    finally:
        database.engine.dispose()

    assert (page.status_code, api.status_code) == (503, 503)
    assert page.headers["Retry-After"] == api.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert api.mimetype == "application/problem+json"
