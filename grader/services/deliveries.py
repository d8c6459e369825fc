"""Outbound deliveries (result callbacks, LTI scores): durable, retried, logged.

Each :class:`~grader.models.Delivery` row is one event for one place. Senders, registered by
kind, make one attempt and say what happened; this module stores the attempt and decides
what comes next: delivered on 2xx, retried with exponential backoff and jitter (respecting
``Retry-After``) for at least 24 hours, given up on a gone endpoint (410) or a refusal.
Event makers, registered by name, turn a finished grading run into deliveries.
"""

from __future__ import annotations

import importlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session

from grader.models import Delivery, DeliveryAttempt, DeliveryState, Exercise, GradingRun, utcnow
from grader.models.base import aware
from grader.services.grades import StudentGrade

FIRST_DELAY = 10.0
"""Seconds before the first retry; each retry doubles it, up to ``MAX_DELAY``."""
MAX_DELAY = 3600.0
RETRY_WINDOW = timedelta(hours=26)
"""Retries go on this long after the delivery was made (at least 24 hours)."""
LEASE = timedelta(minutes=2)
"""How long one attempt holds its delivery: longer than any sender's attempt takes (a
callback's connect and read timeouts for each of its few addresses, an LTI score's token
request and POST), short enough that a worker killed mid-attempt holds it up little."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DeliveryOutcome:
    """One attempt's result: the response code (None: no response) and what went wrong."""

    status_code: int | None
    error: str | None = None
    retry_after: float | None = None
    """Seconds the receiver asked us to wait (its ``Retry-After``)."""
    give_up: bool = False
    """Never retry (for example a callback URL that is no longer allowed)."""

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


Sender = Callable[[Session, Delivery], DeliveryOutcome]
EventMaker = Callable[[Session, GradingRun], list[Delivery]]
GradeEventMaker = Callable[[Session, Exercise, StudentGrade, str], list[Delivery]]
"""Turns a student's changed grade on an exercise (and why it changed) into deliveries."""

SENDERS: dict[str, Sender] = {}
EVENT_MAKERS: dict[str, EventMaker] = {}
GRADE_EVENT_MAKERS: dict[str, GradeEventMaker] = {}


PLUGINS = ("grader.lms.callbacks", "grader.lti.scores")
"""Modules that register their senders and event makers when imported."""


def load_plugins() -> None:
    for name in PLUGINS:
        importlib.import_module(name)


def register_sender(kind: str, sender: Sender) -> None:
    SENDERS[kind] = sender


def register_event_maker(name: str, maker: EventMaker) -> None:
    EVENT_MAKERS[name] = maker


def register_grade_event_maker(name: str, maker: GradeEventMaker) -> None:
    GRADE_EVENT_MAKERS[name] = maker


def backoff(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds to wait after ``attempts`` failed tries: doubling, capped, with full jitter
    over the upper half so that receivers coming back are not hit all at once."""
    ceiling = min(MAX_DELAY, FIRST_DELAY * 2 ** max(0, attempts - 1))
    return (rng or random).uniform(ceiling / 2, ceiling)


def on_run_finished(session: Session, run: GradingRun) -> list[int]:
    """Make every delivery a finished run calls for (flushed; send their ids after commit).
    A check's run calls for none: a check is not an attempt, an LMS never hears of it; nor
    does a regrade's preview run until the regrade is confirmed."""
    if run.submission.is_check or not run.counted:
        return []
    load_plugins()
    made: list[Delivery] = []
    for maker in EVENT_MAKERS.values():
        made += maker(session, run)
    session.flush()
    return [delivery.id for delivery in made]


def attempt(session: Session, delivery_id: int, now: datetime | None = None) -> float | None:
    """Try a pending delivery once (commits). Seconds until the next try, or None: done,
    not due yet, or an attempt already under way elsewhere.

    The delivery is claimed first, by one conditional UPDATE committed on its own: of two
    callers (the sweep and a planned retry, two workers) only the one whose UPDATE changed
    the row sends. The claim lapses after :data:`LEASE`. The next try is planned from when
    this one ended, so that a slow receiver does not make the next try due already."""
    now = now or utcnow()
    claimed = claim(session, delivery_id, now)
    if claimed is None:
        return None
    token, attempts = claimed
    delivery = session.get(Delivery, delivery_id)
    assert delivery is not None
    load_plugins()
    sender = SENDERS[delivery.kind]
    began = utcnow()
    try:
        outcome = sender(session, delivery)
    except Exception as error:  # a fault of the sender: logged as a failed attempt
        session.rollback()
        outcome = DeliveryOutcome(None, f"{type(error).__name__}: {error}")
    took = utcnow() - began
    ended = now + took  # on the caller's clock, which tests move forward
    changes = _next(delivery, outcome, attempts + 1, ended)
    owned = _recorded(session, _Attempt(delivery_id, token, began, took, outcome, changes))
    if owned is None or changes["state"] != DeliveryState.PENDING:
        return None
    planned = changes["next_attempt_at"]
    assert isinstance(planned, datetime)
    return max(0.0, (planned - ended).total_seconds())


@dataclass(frozen=True, slots=True)
class _Attempt:
    """One attempt made under a claim, to record: what happened and what comes next."""

    delivery_id: int
    token: str
    """The claim's."""
    began: datetime
    took: timedelta
    outcome: DeliveryOutcome
    changes: dict[str, Any]
    """The delivery's columns after it (:func:`_next`)."""


RECORD_WAITS = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
"""Seconds between tries at recording an attempt's outcome while the database is away:
within :data:`LEASE` in all, so that the attempt is recorded before another may claim the
delivery and send it again (what a PostgreSQL restart during a backlog did)."""


def _recorded(session: Session, made: _Attempt) -> int | None:
    """Record an attempt's outcome and what comes next (commits), trying again while the
    database is away; the delivery's id, or None when the attempt outlived its claim."""
    for wait in (*RECORD_WAITS, None):
        try:
            return _record(session, made)
        except (OperationalError, InterfaceError):
            session.rollback()
            if wait is None:
                raise
            log.warning(
                "delivery %s: its attempt is recorded again in %s s", made.delivery_id, wait
            )
            time.sleep(wait)
    raise AssertionError("unreachable")


def _record(session: Session, made: _Attempt) -> int | None:
    session.add(
        DeliveryAttempt(
            delivery_id=made.delivery_id,
            at=made.began,
            status_code=made.outcome.status_code,
            error=made.outcome.error,
            duration_ms=int(made.took.total_seconds() * 1000),
        )
    )
    owned = session.execute(
        update(Delivery)
        .where(Delivery.id == made.delivery_id, Delivery.claimed_by == made.token)
        .values(attempts=Delivery.attempts + 1, claimed_by=None, claimed_until=None, **made.changes)
        .returning(Delivery.id)
        .execution_options(synchronize_session=False)
    ).first()
    if owned is None:
        # The attempt outlived its lease and another one claimed the delivery: that one
        # decides what comes next; this one is only counted and logged.
        log.warning("delivery %s: an attempt outlived its lease (%s)", made.delivery_id, made.took)
        session.execute(
            update(Delivery)
            .where(Delivery.id == made.delivery_id)
            .values(attempts=Delivery.attempts + 1)
            .execution_options(synchronize_session=False)
        )
    session.commit()
    return None if owned is None else int(owned[0])


def claim(session: Session, delivery_id: int, now: datetime) -> tuple[str, int] | None:
    """Claim a due delivery for one attempt (committed): the claim's token and the
    attempts made so far, or None when it is not due or another attempt holds it."""
    token = secrets.token_hex(16)
    row = session.execute(
        update(Delivery)
        .where(
            Delivery.id == delivery_id,
            Delivery.state == DeliveryState.PENDING,
            or_(Delivery.next_attempt_at.is_(None), Delivery.next_attempt_at <= now),
            or_(Delivery.claimed_until.is_(None), Delivery.claimed_until <= now),
        )
        .values(claimed_by=token, claimed_until=now + LEASE)
        .returning(Delivery.attempts)
        .execution_options(synchronize_session=False)
    ).first()
    session.commit()
    return None if row is None else (token, int(row[0]))


def _next(
    delivery: Delivery, outcome: DeliveryOutcome, attempts: int, ended: datetime
) -> dict[str, Any]:
    """The delivery's columns after its ``attempts``-th attempt, ended at ``ended``."""
    if outcome.delivered:
        return {
            "state": DeliveryState.DELIVERED,
            "delivered_at": ended,
            "next_attempt_at": None,
            "last_error": None,
        }
    error = outcome.error or f"HTTP {outcome.status_code}"
    failed = {"state": DeliveryState.FAILED, "next_attempt_at": None, "last_error": error}
    if outcome.give_up:
        return failed
    # Compared as seconds: a receiver's Retry-After may be far beyond what a timedelta holds.
    left = (aware(delivery.created_at) + RETRY_WINDOW - ended).total_seconds()
    asked = outcome.retry_after
    if asked is not None and asked > left:
        failed["last_error"] = (
            f"{error}; the receiver asked to wait {asked:.0f} s (Retry-After), past the end "
            f"of the retry window ({max(0.0, left):.0f} s left): given up"
        )
        log.info("delivery %s: %s", delivery.id, failed["last_error"])
        return failed
    wait = max(backoff(attempts), asked or 0.0)
    if wait > left:
        return failed
    return {
        "state": DeliveryState.PENDING,
        "next_attempt_at": ended + timedelta(seconds=wait),
        "last_error": error,
    }


def due(session: Session, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Pending deliveries whose next try is due and that no attempt holds (for the
    periodic sweep; :func:`attempt` checks both again when it claims one)."""
    now = now or utcnow()
    return list(
        session.scalars(
            select(Delivery.id)
            .where(
                Delivery.state == DeliveryState.PENDING,
                Delivery.next_attempt_at <= now,
                or_(Delivery.claimed_until.is_(None), Delivery.claimed_until <= now),
            )
            .order_by(Delivery.next_attempt_at)
            .limit(limit)
        )
    )


def replay(session: Session, delivery: Delivery) -> None:
    """Deliver again (an instructor's request): back to pending, due now."""
    delivery.state = DeliveryState.PENDING
    delivery.next_attempt_at = utcnow()
    delivery.created_at = utcnow()  # a new retry window
