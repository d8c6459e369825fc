"""A receiver's Retry-After read defensively: seconds or an HTTP date, garbage ignored,
and a wait past the end of the retry window ends the delivery as failed, logged (it once
crashed the delivery task with an OverflowError, leaving it pending with nothing logged)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from grader.config import Settings
from grader.db import Database
from grader.lms import callbacks
from grader.models import Course, DeliveryState
from tests.grader.conftest import UserFactory
from tests.grader.lms.test_callbacks import (
    Receiver,
    deliveries_of,
    graded,
    make_integration,
    new_secret,
)

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver(new_secret()).start()
    yield found
    found.stop()


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 120 ", 120.0),
        ("0", 0.0),
        ("Mon, 02 Mar 2026 12:05:00 GMT", 300.0),
        ("Mon, 02 Mar 2026 11:00:00 GMT", 0.0),
        ("99999999999999", "most"),
        ("9" * 5000, None),
        ("Fri, 31 Dec 9999 23:59:59 GMT", "most"),
        ("-5", None),
        ("1e9", None),
        ("12.5", None),
        ("\u00b2", None),
        ("\u0663", None),
        ("soon", None),
        ("Mon, 99 Foo 2026 99:99:99 GMT", None),
        ("Mon, 02 Mar 99999999999 12:05:00 GMT", None),
        ("x" * 10_000, None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_values(value: str | None, seconds: float | str | None) -> None:
    if seconds == "most":  # read as the longest wait there is; the window decides
        seconds = callbacks.MAX_RETRY_AFTER
    assert callbacks.retry_after(value, NOW) == seconds


@pytest.mark.parametrize(
    "value", ["99999999999999", "Fri, 31 Dec 9999 23:59:59 GMT", "100000", "93601"]
)
def test_a_wait_past_the_retry_window_ends_the_delivery_as_failed(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    value: str,
) -> None:
    receiver.answers = [(503, {"Retry-After": value})]
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.FAILED and delivery.next_attempt_at is None
    assert delivery.attempts == len(delivery.log) == len(receiver.got) == 1
    assert [row.status_code for row in delivery.log] == [503]
    assert "Retry-After" in (delivery.last_error or "")
    assert "past the end of the retry window" in (delivery.last_error or "")


@pytest.mark.parametrize("value", ["-5", "soon", "\u00b2", "Mon, 99 Foo 2026 99:99:99 GMT"])
def test_a_retry_after_that_cannot_be_read_is_ignored(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    value: str,
) -> None:
    receiver.answers = [(503, {"Retry-After": value})]
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())

    (delivery,) = deliveries_of(database, submission_id)
    assert delivery.state == DeliveryState.PENDING and delivery.next_attempt_at is not None
    assert delivery.attempts == len(delivery.log) == 1
    assert (delivery.last_error or "").startswith("HTTP 503")
