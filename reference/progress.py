"""Progress of long work (expanding a large game), told to whoever asked to hear it.

The work does not take a callback through every layer between the caller and the loop
that counts (an exercise's loader, its tree sources, the game's expansion): the caller
listens with :func:`listening`, a layer that knows what is being done names it with
:func:`doing`, and the loop calls :func:`count` now and then. Nobody listening costs a
context-variable read per call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Listener = Callable[[str, int], None]
"""Told what is being done (in words) and how many things (nodes) it has made so far."""

_listener: ContextVar[Listener | None] = ContextVar("progress_listener", default=None)
_doing: ContextVar[str] = ContextVar("progress_doing", default="working")

EVERY = 50_000
"""How many nodes an expansion makes between two counts."""


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Tell ``listener`` the counts of the work done inside the block."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


@contextmanager
def doing(what: str) -> Iterator[None]:
    """Name the work done inside the block ("expanding tree full")."""
    token = _doing.set(what)
    try:
        yield
    finally:
        _doing.reset(token)


def heard() -> bool:
    """Whether anyone listens (a loop need not count otherwise)."""
    return _listener.get() is not None


def count(made: int) -> None:
    """Tell the listener, if any, that the current work has made ``made`` things."""
    listener = _listener.get()
    if listener is not None:
        listener(_doing.get(), made)
