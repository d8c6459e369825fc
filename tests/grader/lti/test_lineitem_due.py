"""A due date read from a launch's line item (its ``endDateTime``) by a worker after the
launch: kept unless the launch carried one or an instructor set one, and a platform that
cannot answer changes nothing and troubles no one (tasks are eager: the worker's reading
runs in this process after the launch's commit)."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lti import lineitems
from grader.lti.launch import LINEITEM_READONLY_SCOPE, LINEITEM_SCOPE, SCORE_SCOPE
from grader.lti.lineitems import Reading, read_due
from grader.models import AuditEvent, Exercise, LtiLaunch
from grader.models.base import aware
from grader.services.queue import Queue
from grader.services.tasks import LINEITEM_TASK
from tests.grader.conftest import SentAfterCommit
from tests.grader.lti.conftest import launch
from tests.grader.lti.platform import DROP, Platform

SLUG = "aima-fig5.2-alphabeta"
END = "2026-12-05T23:59:00+01:00"
END_UTC = datetime(2026, 12, 5, 22, 59, tzinfo=UTC)


def stored_exercise(database: Database) -> Exercise:
    with database.session() as session:
        record = session.scalars(select(LtiLaunch)).one()
        found = session.get(Exercise, record.exercise_id)
        assert found is not None
        session.expunge(found)
        return found


def launch_id(database: Database) -> int:
    with database.session() as session:
        return session.scalars(select(LtiLaunch.id)).one()


def deadline_events(database: Database) -> list[AuditEvent]:
    with database.session() as session:
        found = list(
            session.scalars(
                select(AuditEvent)
                .where(AuditEvent.action == "exercise.deadline")
                .order_by(AuditEvent.id)
            )
        )
        session.expunge_all()
        return found


def set_instructor_due(database: Database, exercise_id: int, due: datetime) -> None:
    with database.session() as session:
        stored = session.get(Exercise, exercise_id)
        assert stored is not None
        stored.due_at, stored.due_origin = due, "instructor"


def lands_on_the_exercise(client: FlaskClient, platform: Platform, **changes: Any) -> None:
    landed = launch(client, platform, **changes)
    assert landed.status_code == 302, landed.get_data(as_text=True)
    assert landed.headers["Location"].startswith("/exercises/")


def test_a_launch_without_a_due_date_takes_the_line_item_s(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    platform.lineitem["endDateTime"] = END

    lands_on_the_exercise(client, platform)

    exercise = stored_exercise(database)
    assert exercise.due_at is not None and aware(exercise.due_at) == END_UTC
    assert exercise.due_origin == "lti"
    (event,) = deadline_events(database)
    assert event.actor_id is None and event.exercise_id == exercise.id
    assert event.details["source"] == "lti line item"
    assert event.details["after"] == {"due_at": "2026-12-05T22:59:00+00:00", "due_origin": "lti"}
    (got,) = platform.lineitem_gets
    assert got.authorized
    assert got.headers["Accept"] == "application/vnd.ims.lis.v2.lineitem+json"
    assert [request.scope for request in platform.token_requests] == [LINEITEM_SCOPE]

    # Read again at the next launch: the same date changes nothing, and is not logged again.
    lands_on_the_exercise(client, platform)
    assert len(platform.lineitem_gets) == 2
    assert len(deadline_events(database)) == 1

    # The platform moves it: followed.
    platform.lineitem["endDateTime"] = "2026-12-07T22:59:00Z"
    lands_on_the_exercise(client, platform)
    moved = stored_exercise(database).due_at
    assert moved is not None and aware(moved) == datetime(2026, 12, 7, 22, 59, tzinfo=UTC)
    assert len(deadline_events(database)) == 2


def test_the_read_only_scope_is_asked_for_when_granted(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    platform.lineitem["endDateTime"] = END
    scopes = [LINEITEM_SCOPE, LINEITEM_READONLY_SCOPE, SCORE_SCOPE]
    lands_on_the_exercise(
        client, platform, endpoint={"scope": scopes, "lineitem": platform.lineitem_url}
    )
    assert [request.scope for request in platform.token_requests] == [LINEITEM_READONLY_SCOPE]
    assert stored_exercise(database).due_origin == "lti"


def test_an_instructor_s_due_date_is_not_replaced_nor_the_line_item_read(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []
    real = lineitems.read_due

    def recording(database: Database, settings: Settings, launch_id: int) -> object:
        asked.append(launch_id)
        return real(database, settings, launch_id)

    # Eager tasks find their work by its dotted path, when they are sent.
    monkeypatch.setattr(lineitems, "read_due", recording)
    lands_on_the_exercise(client, platform)  # the exercise is made at its first launch
    exercise = stored_exercise(database)
    assert exercise.due_at is None and len(platform.lineitem_gets) == 1 and len(asked) == 1
    mine = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    set_instructor_due(database, exercise.id, mine)
    platform.lineitem["endDateTime"] = END

    lands_on_the_exercise(client, platform)

    assert len(asked) == 1  # the launch did not ask for a reading
    assert len(platform.lineitem_gets) == 1
    kept = stored_exercise(database)
    assert kept.due_at is not None and aware(kept.due_at) == mine
    assert kept.due_origin == "instructor"
    # A reading asked for before the instructor set the date finds it and reads nothing.
    sent = SentAfterCommit()
    reading = read_due(database, settings, launch_id(database), sent)
    assert reading == Reading("the instructor set the due date")
    assert len(platform.lineitem_gets) == 1 and sent.deliveries == []
    assert deadline_events(database) == []


def test_a_due_date_in_the_launch_wins_over_the_line_item(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    platform.lineitem["endDateTime"] = END
    custom = {"exercise": SLUG, "due_at": "2026-11-30T11:00:00+01:00"}

    lands_on_the_exercise(client, platform, custom=custom)

    assert platform.lineitem_gets == []
    exercise = stored_exercise(database)
    assert exercise.due_at is not None
    assert aware(exercise.due_at) == datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    (event,) = deadline_events(database)
    assert event.details["source"] == "lti launch"


@pytest.mark.parametrize(
    ("scopes", "with_url"),
    [
        pytest.param([SCORE_SCOPE], True, id="score scope only"),
        pytest.param([LINEITEM_SCOPE, SCORE_SCOPE], False, id="no line item URL"),
        pytest.param(None, False, id="no AGS claim"),
    ],
)
def test_without_a_line_item_to_read_none_is_read(
    client: FlaskClient,
    database: Database,
    platform: Platform,
    registered: int,
    scopes: list[str] | None,
    with_url: bool,
) -> None:
    platform.lineitem["endDateTime"] = END
    endpoint: object = DROP
    if scopes is not None:
        endpoint = {"scope": scopes, **({"lineitem": platform.lineitem_url} if with_url else {})}

    lands_on_the_exercise(client, platform, endpoint=endpoint)

    assert platform.lineitem_gets == [] and platform.token_requests == []
    assert stored_exercise(database).due_at is None


@pytest.mark.parametrize(
    ("end", "said"),
    [
        (None, "has no endDateTime"),
        ("", "has no endDateTime"),
        (20261205, "has no endDateTime"),
        ("next friday", "'next friday' is not ISO 8601"),
        ("$LineItem.endDateTime", "is not ISO 8601"),
    ],
)
def test_a_line_item_without_a_readable_end_changes_nothing(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
    caplog: pytest.LogCaptureFixture,
    end: object,
    said: str,
) -> None:
    if end is not None:
        platform.lineitem["endDateTime"] = end
    with caplog.at_level(logging.INFO, logger="grader.lti.lineitems"):
        lands_on_the_exercise(client, platform)

    assert len(platform.lineitem_gets) == 1
    exercise = stored_exercise(database)
    assert exercise.due_at is None and exercise.due_origin is None
    assert deadline_events(database) == []
    assert said in caplog.text
    reading = read_due(database, settings, launch_id(database), SentAfterCommit())
    assert said in reading.summary and not reading.retry  # nothing to gain by asking again


@pytest.mark.parametrize(("status", "said"), [(500, "HTTP 500"), (401, "HTTP 401")])
def test_a_failing_platform_changes_nothing_and_the_student_lands_on_the_exercise(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
    caplog: pytest.LogCaptureFixture,
    status: int,
    said: str,
) -> None:
    platform.lineitem["endDateTime"] = END
    platform.lineitem_status = status

    with caplog.at_level(logging.INFO, logger="grader.lti.lineitems"):
        lands_on_the_exercise(client, platform)

    assert len(platform.lineitem_gets) == 1
    assert stored_exercise(database).due_at is None and deadline_events(database) == []
    assert said in caplog.text
    # Worth one more try (the worker's task makes one, a minute later).
    reading = read_due(database, settings, launch_id(database), SentAfterCommit())
    assert reading.retry and said in reading.summary
    if status == 401:  # the refused token was dropped: the second try asked for a new one
        assert len(platform.token_requests) == 2


def test_a_refused_token_changes_nothing(
    client: FlaskClient,
    database: Database,
    platform: Platform,
    registered: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    platform.lineitem["endDateTime"] = END
    platform.tool_jwks = {"keys": []}  # the platform does not know the tool's key yet

    with caplog.at_level(logging.INFO, logger="grader.lti.lineitems"):
        lands_on_the_exercise(client, platform)

    assert platform.lineitem_gets == []
    assert stored_exercise(database).due_at is None
    assert "token endpoint answered HTTP 401" in caplog.text


def test_a_moved_due_date_sends_the_grades_it_moves(
    client: FlaskClient, database: Database, settings: Settings, platform: Platform, registered: int
) -> None:
    """The deliveries ``set_lti_due`` makes are handed to the sender after the commit (none
    here: nobody has a grade yet), and a second reading is a no-op."""
    lands_on_the_exercise(client, platform)
    platform.lineitem["endDateTime"] = END
    sent = SentAfterCommit()
    assert read_due(database, settings, launch_id(database), sent).summary.startswith("endDateTime")
    assert sent.deliveries == []
    assert len(deadline_events(database)) == 1
    read_due(database, settings, launch_id(database), sent)
    assert len(deadline_events(database)) == 1


class _Broker:
    def __init__(self) -> None:
        self.sent: list[tuple[str, list[Any], str]] = []

    def send_task(self, name: str, args: list[Any], **options: Any) -> None:
        self.sent.append((name, args, options["queue"]))


def test_the_reading_goes_to_the_callbacks_queue(settings: Settings, database: Database) -> None:
    from worker.celery_app import app as celery_app

    route = celery_app.amqp.router.route({}, LINEITEM_TASK)
    assert route["queue"].name == "callbacks"
    broker = _Broker()
    queue = Queue(replace(settings, eager_tasks=False), database, broker)
    assert queue.send(LINEITEM_TASK, [5]) == 1
    assert broker.sent == [(LINEITEM_TASK, [5], "callbacks")]


def test_the_task_tries_once_more_at_most(
    monkeypatch: pytest.MonkeyPatch, database: Database
) -> None:
    from worker import tasks

    again: list[tuple[list[int], float]] = []
    monkeypatch.setattr(tasks, "_database", lambda: database)
    monkeypatch.setattr(tasks, "read_due", lambda *_args: Reading("HTTP 503", retry=True))
    monkeypatch.setattr(
        tasks.read_lineitem_due,
        "apply_async",
        lambda args, countdown: again.append((args, countdown)),
    )
    assert tasks.read_lineitem_due(5) == "HTTP 503; again in 60 s"
    assert again == [([5, 2], lineitems.RETRY_SECONDS)]
    assert tasks.read_lineitem_due(5, 2) == "HTTP 503"
    assert len(again) == 1
