"""Every route with an ``<int:...>`` part answers 404 for ids past what the database holds
(2**31, 2**63, 2**64, 10**30, thousands of digits), signed out and signed in, on SQLite and
PostgreSQL: never a 500."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from grader.models import Role, User
from grader.web import create_app
from grader.web.security import LARGEST_ID
from tests.grader.conftest import Backend

VARIABLE = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
HUGE = [str(2**31), str(2**63), str(2**64), str(10**30), "9" * 5000]


def int_rules(app: Flask) -> list[Rule]:
    rules = [
        rule
        for rule in app.url_map.iter_rules()
        if any(converter == "int" for converter, _ in _parts(rule))
    ]
    assert len(rules) >= 15, [rule.rule for rule in rules]
    return rules


def _parts(rule: Rule) -> Iterator[tuple[str | None, str]]:
    """The rule's text and variables in order: (None, text) or (converter, name)."""
    pieces = VARIABLE.split(rule.rule)  # text, converter, name, text, converter, ...
    for index in range(0, len(pieces), 3):
        if pieces[index]:
            yield None, pieces[index]
        if index + 2 < len(pieces):
            yield pieces[index + 1] or "default", pieces[index + 2]


def urls(rule: Rule, huge: str) -> Iterator[str]:
    """The rule's URL with ``huge`` in one int part at a time (1 in the others)."""
    names = [name for converter, name in _parts(rule) if converter == "int"]
    for target in names:
        path = ""
        for converter, part in _parts(rule):
            if converter is None:
                path += part
            elif converter == "int":
                path += huge if part == target else "1"
            else:
                path += "x"
        yield path


def methods(rule: Rule) -> list[str]:
    return sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})


@pytest.fixture
def app(backend: Backend) -> Flask:
    return create_app(backend.settings, backend.database)


@pytest.mark.parametrize("huge", HUGE, ids=["2^31", "2^63", "2^64", "10^30", "5000-digits"])
def test_a_huge_id_is_404_on_every_route(app: Flask, backend: Backend, huge: str) -> None:
    anonymous = app.test_client()
    admin = app.test_client()
    login(admin, backend.user(Role.ADMIN))

    answers: dict[str, int] = {}
    for rule in int_rules(app):
        for url in urls(rule, huge):
            for method in methods(rule):
                for who, client in (("anonymous", anonymous), ("admin", admin)):
                    response = client.open(url, method=method)
                    answers[f"{who} {method} {url[:60]}"] = response.status_code

    wrong = {url: status for url, status in answers.items() if status != 404}
    assert not wrong


def test_the_largest_id_still_reaches_the_view(app: Flask, backend: Backend) -> None:
    admin = app.test_client()
    login(admin, backend.user(Role.ADMIN))

    response = admin.get(f"/submissions/{LARGEST_ID}")
    api = admin.get(f"/api/v1/submissions/{LARGEST_ID}")

    assert response.status_code == 404
    assert api.status_code in (401, 404)
    assert api.mimetype == "application/problem+json"


def login(client: FlaskClient, user: User) -> None:
    """Signed in as ``user`` through Flask-Login's session key (``User.get_id``)."""
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True
