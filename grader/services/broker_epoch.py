"""Whether the broker lost the messages it held: Redis restarted without persistence (or
emptied), so every task it had taken and not handed out yet is gone.

The reaper writes a random token beside the broker's messages and keeps it in the database
too, which outlives the broker. A broker that no longer holds the token it was given lost
its messages with it; a broker seen for the first time has nothing to lose yet. Each job
kind says which of its jobs had a task the broker took and no worker started
(:attr:`grader.services.jobs.JobKind.unstarted`), and the reaper sends those again: a
message that was not lost after all is a leftover, which its task's own check turns away.

The embedded broker keeps its messages in a file beside the database: never lost alone.
"""

from __future__ import annotations

import logging
import secrets

import redis
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.models import utcnow
from grader.models.workers import BrokerEpoch

log = logging.getLogger(__name__)

EPOCH_KEY = "grader:broker-epoch"
TIMEOUT_SECONDS = 2.0


def broker_name(url: str) -> str:
    """The broker's URL as the database keeps it: its password hidden."""
    return make_url(url).render_as_string(hide_password=True)[:300]


def messages_lost(session: Session, settings: Settings) -> bool:
    """Whether the broker lost its messages since the last look (commits; an unreachable
    broker: not known, False)."""
    if not settings.redis_url:
        return False
    client = redis.Redis.from_url(
        settings.redis_url,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
    )
    try:
        held: bytes | None = client.get(EPOCH_KEY)  # type: ignore[assignment]
        known = session.scalar(
            select(BrokerEpoch).where(BrokerEpoch.broker == broker_name(settings.redis_url))
        )
        if known is not None and held is not None and held.decode(errors="replace") == known.token:
            return False
        token = secrets.token_hex(16)
        client.set(EPOCH_KEY, token)
    except redis.RedisError as error:
        log.warning("the broker's epoch was not read: %s", type(error).__name__)
        return False
    finally:
        client.close()
    if known is None:
        session.add(BrokerEpoch(broker=broker_name(settings.redis_url), token=token))
    else:
        known.token, known.written_at = token, utcnow()
    session.commit()
    if known is None:
        return False  # the first look at this broker
    log.warning("the broker holds none of the messages sent before: they are sent again")
    return True
