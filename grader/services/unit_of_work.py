"""Side effects that wait for a commit: what a unit of work asks to do once it is stored.

A request or a task owns one session and commits it once; the tasks it asks for on the way
are sent by the session's ``after_commit`` hook, once, after the rows they name are
committed, and forgotten when the session rolls back instead (as warehouse's task class
does).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

Action = Callable[[], object]

log = logging.getLogger(__name__)

_PENDING = "grader.after_commit"
"""The key of a session's waiting actions in ``Session.info``."""


def after_commit(session: Session, action: Action) -> None:
    """Do ``action`` once ``session``'s transaction commits (dropped on a rollback)."""
    if not event.contains(session, "after_commit", _run_pending):
        event.listen(session, "after_commit", _run_pending)
        event.listen(session, "after_transaction_end", _drop_pending)
    pending: list[Action] = session.info.setdefault(_PENDING, [])
    pending.append(action)


def pending(session: Session) -> int:
    """How many actions wait for ``session``'s commit."""
    return len(session.info.get(_PENDING, []))


def _run_pending(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint released: the outer transaction is not committed yet
    actions = session.info.pop(_PENDING, [])
    for action in actions:
        try:
            action()
        except Exception:
            # The commit is done: a failed side effect must not pass for a failed commit
            # (the reaper and the sweep send again what was not sent).
            log.exception("an action after a commit failed")


def _drop_pending(session: Session, transaction: SessionTransaction) -> None:
    # The outermost transaction ended without its commit running the actions: a rollback.
    if transaction.parent is None:
        session.info.pop(_PENDING, None)


class Dispatcher(Protocol):
    """What sends jobs once a session commits (:class:`grader.services.queue.Queue`): the
    services that make or change jobs are handed one and ask it, never the broker."""

    def dispatch(self, session: Session, kind: str, ids: Iterable[int]) -> None:
        """Send the task of kind ``kind`` (a task name of :mod:`grader.services.jobs`) for
        each id once ``session`` commits (never if it rolls back)."""
