"""Whether the broker lost the messages it held: Redis restarted without persistence (or
emptied), so every task it had taken and not handed out yet is gone.

The first look writes a key beside the messages, kept as long as they are; a later look
that finds it gone knows that they went with it. Each job kind says which of its jobs had
a task the broker took and no worker started (:attr:`grader.services.jobs.JobKind.unstarted`),
and the reaper sends those again: a message that was not lost after all is a leftover
that its task's own check turns away. The first look of a new deployment finds no key
either and sends the waiting jobs once more, which costs nothing but the messages.

The embedded broker keeps its messages in a file with the database's: never lost alone.
"""

from __future__ import annotations

import logging

import redis

from grader.config import Settings
from grader.models import utcnow

log = logging.getLogger(__name__)

EPOCH_KEY = "grader:broker-epoch"
TIMEOUT_SECONDS = 2.0


def messages_lost(settings: Settings) -> bool:
    """Whether the broker lost its messages since the last look (an unreachable broker:
    not known, False)."""
    if not settings.redis_url:
        return False
    client = redis.Redis.from_url(
        settings.redis_url,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
    )
    try:
        written = client.set(EPOCH_KEY, utcnow().isoformat(), nx=True)
    except redis.RedisError as error:
        log.warning("the broker's epoch was not read: %s", type(error).__name__)
        return False
    finally:
        client.close()
    if written:
        log.warning("the broker holds none of the messages sent before: they are sent again")
    return bool(written)
