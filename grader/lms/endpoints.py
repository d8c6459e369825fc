"""Callback endpoints: a callback URL that answered 410 Gone is disabled, for every later
submission, until an instructor enables it again on the delivery page.

While it is disabled, webhooks naming it are refused (409, ``callback-disabled``) rather
than accepted with results that would never be sent.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import CallbackEndpoint, Delivery, utcnow


def find(session: Session, integration_id: int, url: str) -> CallbackEndpoint | None:
    return session.scalar(
        select(CallbackEndpoint).where(
            CallbackEndpoint.integration_id == integration_id, CallbackEndpoint.url == url
        )
    )


def disabled(session: Session, integration_id: int, url: str) -> CallbackEndpoint | None:
    """The endpoint for ``url`` if it is disabled, else None."""
    endpoint = find(session, integration_id, url)
    return endpoint if endpoint is not None and endpoint.disabled_at is not None else None


def disabled_of(session: Session, integration_id: int) -> list[tuple[CallbackEndpoint, int | None]]:
    """The integration's disabled endpoints, each with its latest delivery's id (whose page
    enables it again)."""
    latest = (
        select(func.max(Delivery.id))
        .where(Delivery.integration_id == integration_id, Delivery.url == CallbackEndpoint.url)
        .scalar_subquery()
    )
    rows = session.execute(
        select(CallbackEndpoint, latest)
        .where(
            CallbackEndpoint.integration_id == integration_id,
            CallbackEndpoint.disabled_at.is_not(None),
        )
        .order_by(CallbackEndpoint.disabled_at.desc())
    )
    return [(endpoint, delivery_id) for endpoint, delivery_id in rows]


def disable(
    session: Session, integration_id: int, url: str, moment: datetime | None = None
) -> CallbackEndpoint:
    """Disable ``url`` after a 410 Gone answer (flushed with the caller's transaction)."""
    moment = moment or utcnow()
    endpoint = find(session, integration_id, url)
    if endpoint is None:
        endpoint = CallbackEndpoint(integration_id=integration_id, url=url)
        session.add(endpoint)
    endpoint.disabled_at = moment
    endpoint.disabled_reason = f"the receiver answered 410 Gone on {moment:%Y-%m-%d %H:%M} UTC"
    return endpoint


def enable(endpoint: CallbackEndpoint, user_id: int | None) -> None:
    """An instructor's decision: callbacks may go to the endpoint again."""
    endpoint.disabled_at = None
    endpoint.disabled_reason = None
    endpoint.enabled_again_at = utcnow()
    endpoint.enabled_again_by_id = user_id


def why(endpoint: CallbackEndpoint) -> str:
    """What a webhook naming a disabled endpoint is told."""
    since = endpoint.disabled_at
    when = f"{since:%Y-%m-%d %H:%M} UTC" if since is not None else "earlier"
    return (
        f"callback_url {endpoint.url} is disabled since {when}: the receiver answered "
        "410 Gone, which asks the grader to stop calling it. An instructor of the course can "
        'enable it again ("Enable this callback URL again" on any of its deliveries in the '
        "grader's delivery log); until then webhooks naming it are refused."
    )
