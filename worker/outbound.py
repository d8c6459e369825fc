"""Outbound deliveries from the worker: one attempt now, the next one planned.

The senders and event makers are registered by their own modules, which
:func:`grader.services.deliveries.attempt` imports before it sends (``PLUGINS`` there).
"""

from __future__ import annotations

from grader.config import Settings
from grader.db import Database
from grader.services.deliveries import attempt


def deliver_now(database: Database, _settings: Settings, delivery_id: int) -> float | None:
    """Try ``delivery_id`` once; seconds until its next try, or None when it is done (the
    settings are those every job's work is given, unused here)."""
    with database.sessions() as session:
        return attempt(session, delivery_id)
