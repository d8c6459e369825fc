"""The OpenAPI document: its server comes from the configuration, never from the request's
Host header; its ``webhooks`` section describes the result callbacks as they are sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from grader.db import Database
from grader.lms import callbacks, integrations
from grader.models import Course
from tests.grader.conftest import configured
from tests.grader.lms import Lms, submission
from tests.grader.lms.test_callbacks import Receiver

OPENAPI = "/api/v1/openapi.json"
EVENTS = {"submission.graded", "submission.failed"}


def test_the_servers_never_echo_the_requests_host(app: Flask, client: FlaskClient) -> None:
    response = client.get(OPENAPI, headers={"Host": "evil.example"})
    assert response.status_code == 200
    assert response.get_json()["servers"] == [{"url": "/api/v1"}]
    assert "evil.example" not in response.get_data(as_text=True)

    configured(app, public_url="https://grader.example")
    response = client.get(OPENAPI, headers={"Host": "grader.example"})
    assert response.get_json()["servers"] == [{"url": "https://grader.example/api/v1"}]


def test_the_webhooks_section_describes_the_callbacks(client: FlaskClient) -> None:
    text = client.get(OPENAPI).get_data(as_text=True)
    document = json.loads(text)
    assert document["openapi"].startswith("3.1")
    assert set(document["webhooks"]) == EVENTS | {"grade.changed"}
    components = document["components"]
    for event in EVENTS:
        operation = document["webhooks"][event]["post"]
        headers = {
            components["parameters"][item["$ref"].rsplit("/", 1)[-1]]["name"]
            for item in operation["parameters"]
        }
        assert headers == {"webhook-id", "webhook-timestamp", "webhook-signature"}
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/CallbackEvent"}
        explained = operation["description"]
        for rule in ("HMAC-SHA256", "Retry-After", "26 hours", "not followed", "410 Gone"):
            assert rule in explained, rule
        assert {"2XX", "3XX", "410", "default"} <= set(operation["responses"])
    event = components["schemas"]["CallbackEvent"]
    assert set(event["properties"]["type"]["enum"]) == EVENTS
    data = event["properties"]["data"]
    assert {"user_id", "context_id", "webhook_id", "report"} <= set(data["required"])


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)
    found = Receiver("").start()
    yield found
    found.stop()


def test_a_callback_sent_matches_its_description(
    client: FlaskClient, database: Database, course: Course, receiver: Receiver
) -> None:
    with database.session() as session:
        made = integrations.create(
            session, session.get(Course, course.id), "Moodle", ["127.0.0.1"], None
        )
    assert made.secret and made.token
    receiver.secret = made.secret
    lms = Lms(client, made.integration.id, made.secret, made.token)
    assert lms.post(submission(callback_url=receiver.url())).status_code == 202
    (got,) = receiver.got
    assert got.verified, got.problem

    schema = client.get(OPENAPI).get_json()["components"]["schemas"]["CallbackEvent"]
    sent: dict[str, Any] = got.payload
    assert set(schema["required"]) <= set(sent) <= set(schema["properties"])
    assert sent["type"] in schema["properties"]["type"]["enum"]
    data = schema["properties"]["data"]
    assert set(data["required"]) <= set(sent["data"]) <= set(data["properties"])
