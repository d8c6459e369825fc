"""Outbound deliveries (result callbacks, LTI scores): durable, retried, logged.

Each :class:`~grader.models.Delivery` row is one event for one place. Senders, registered by
kind, make one attempt and say what happened; this module stores the attempt and decides
what comes next: delivered on 2xx, retried with exponential backoff and jitter (respecting
``Retry-After``) for at least 24 hours, given up on a gone endpoint (410) or a refusal.
Event makers, registered by name, turn a finished grading run into deliveries.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import Delivery, DeliveryAttempt, DeliveryState, GradingRun, utcnow

FIRST_DELAY = 10.0
"""Seconds before the first retry; each retry doubles it, up to ``MAX_DELAY``."""
MAX_DELAY = 3600.0
RETRY_WINDOW = timedelta(hours=26)
"""Retries go on this long after the delivery was made (at least 24 hours)."""


@dataclass(frozen=True, slots=True)
class Outcome:
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


Sender = Callable[[Session, Delivery], Outcome]
EventMaker = Callable[[Session, GradingRun], list[Delivery]]

SENDERS: dict[str, Sender] = {}
EVENT_MAKERS: dict[str, EventMaker] = {}


PLUGINS = ("grader.lms.callbacks", "grader.lti.scores")
"""Modules that register their senders and event makers when imported."""


def load_plugins() -> None:
    for name in PLUGINS:
        importlib.import_module(name)


def register_sender(kind: str, sender: Sender) -> None:
    SENDERS[kind] = sender


def register_event_maker(name: str, maker: EventMaker) -> None:
    EVENT_MAKERS[name] = maker


def backoff(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds to wait after ``attempts`` failed tries: doubling, capped, with full jitter
    over the upper half so that receivers coming back are not hit all at once."""
    ceiling = min(MAX_DELAY, FIRST_DELAY * 2 ** max(0, attempts - 1))
    return (rng or random).uniform(ceiling / 2, ceiling)


def on_run_finished(session: Session, run: GradingRun) -> list[int]:
    """Make every delivery a finished run calls for (flushed; send their ids after commit)."""
    load_plugins()
    made: list[Delivery] = []
    for maker in EVENT_MAKERS.values():
        made += maker(session, run)
    session.flush()
    return [delivery.id for delivery in made]


def attempt(session: Session, delivery_id: int, now: datetime | None = None) -> float | None:
    """Try a pending delivery once (commits). Seconds until the next try, or None: done."""
    delivery = session.scalar(select(Delivery).where(Delivery.id == delivery_id).with_for_update())
    now = now or utcnow()
    if delivery is None or delivery.state != DeliveryState.PENDING:
        session.rollback()
        return None
    planned = delivery.next_attempt_at
    if (
        planned is not None
        and (planned if planned.tzinfo else planned.replace(tzinfo=now.tzinfo)) > now
    ):
        session.rollback()  # a duplicate message: the planned try will come
        return None
    load_plugins()
    sender = SENDERS[delivery.kind]
    began = utcnow()
    try:
        outcome = sender(session, delivery)
    except Exception as error:  # a fault of the sender: logged as a failed attempt
        outcome = Outcome(None, f"{type(error).__name__}: {error}")
    delivery.attempts += 1
    delivery.log.append(
        DeliveryAttempt(
            at=began,
            status_code=outcome.status_code,
            error=outcome.error,
            duration_ms=int((utcnow() - began).total_seconds() * 1000),
        )
    )
    wait: float | None = None
    if outcome.delivered:
        delivery.state = DeliveryState.DELIVERED
        delivery.delivered_at = now
        delivery.next_attempt_at = None
        delivery.last_error = None
    else:
        delivery.last_error = outcome.error or f"HTTP {outcome.status_code}"
        wait = max(backoff(delivery.attempts), outcome.retry_after or 0.0)
        created = delivery.created_at
        if created.tzinfo is None:
            created = created.replace(tzinfo=now.tzinfo)
        if outcome.give_up or now + timedelta(seconds=wait) > created + RETRY_WINDOW:
            delivery.state = DeliveryState.FAILED
            delivery.next_attempt_at = None
            wait = None
        else:
            delivery.next_attempt_at = now + timedelta(seconds=wait)
    session.commit()
    return wait


def due(session: Session, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Pending deliveries whose next try is due (for the periodic sweep)."""
    now = now or utcnow()
    return list(
        session.scalars(
            select(Delivery.id)
            .where(Delivery.state == DeliveryState.PENDING, Delivery.next_attempt_at <= now)
            .order_by(Delivery.next_attempt_at)
            .limit(limit)
        )
    )


def replay(session: Session, delivery: Delivery) -> None:
    """Deliver again (an instructor's request): back to pending, due now."""
    delivery.state = DeliveryState.PENDING
    delivery.next_attempt_at = utcnow()
    delivery.created_at = utcnow()  # a new retry window
