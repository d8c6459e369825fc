"""Tests of the LMS integration; the helpers the webhook, API and page tests share: an LMS
holding an integration's credentials that signs what it sends, and problem checks."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import func, select
from standardwebhooks.webhooks import Webhook
from werkzeug.test import TestResponse

from grader.db import Database
from grader.lms import integrations
from grader.models import Course, Submission, User, WebhookReceipt

IMPLEMENTATIONS = Path(__file__).resolve().parents[3] / "exercises" / "implementations"
CORRECT = (IMPLEMENTATIONS / "alphabeta" / "correct_fail_hard.py").read_text()
WRONG = (IMPLEMENTATIONS / "alphabeta" / "wrong_no_pruning.py").read_text()
EXERCISE = "aima-fig5.2-alphabeta"
URL = "/api/v1/lms/submissions"


@dataclass
class Lms:
    """An LMS holding one integration's credentials."""

    client: FlaskClient
    integration_id: int
    secret: str
    token: str

    def post(
        self,
        document: dict[str, Any] | None = None,
        *,
        body: bytes | None = None,
        message_id: str = "msg_1",
        secret: str | None = None,
        moment: datetime | None = None,
        headers: dict[str, str] | None = None,
        token: str | None = None,
    ) -> TestResponse:
        """POST a webhook signed under ``secret`` (default: the current one) at ``moment``."""
        if body is None:
            body = json.dumps(document if document is not None else submission()).encode()
        moment = moment or datetime.now(UTC)
        signature = Webhook(secret or self.secret).sign(message_id, moment, body.decode())
        sent = {
            "Authorization": f"Bearer {token if token is not None else self.token}",
            "Content-Type": "application/json",
            "webhook-id": message_id,
            "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": signature,
        }
        sent.update(headers or {})
        return self.client.post(URL, data=body, headers={k: v for k, v in sent.items() if v})


def submission(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "exercise": EXERCISE,
        "user": {"id": "lms-user-7", "name": "Ada Student", "email": "ada@uni.example.edu"},
        "context_id": "course-42",
        "source": CORRECT,
        "filename": "alphabeta.py",
    }
    document.update(changes)
    return document


def make_lms(client: FlaskClient, database: Database, course: Course) -> Lms:
    """An integration of ``course`` for callbacks on lms.example.edu, and its LMS."""
    with database.session() as session:
        made = integrations.create(
            session, session.get(Course, course.id), "Moodle", ["lms.example.edu"], None
        )
    assert made.secret and made.token
    return Lms(client, made.integration.id, made.secret, made.token)


def count(database: Database, model: type[Any]) -> int:
    with database.session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


Counts = Callable[[], tuple[int, int, int]]


def counter(database: Database) -> Counts:
    """Counts of submissions, users and webhook receipts (what a refusal must not add)."""

    def counted() -> tuple[int, int, int]:
        return (
            count(database, Submission),
            count(database, User),
            count(database, WebhookReceipt),
        )

    return counted


def problem(response: TestResponse, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    document: dict[str, Any] = response.get_json(force=True)
    assert document["status"] == status
    assert document["title"] and document["detail"] and document["type"]
    assert "Traceback" not in response.get_data(as_text=True)
    return document
